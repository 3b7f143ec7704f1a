//! The analyzer: its names and scope, and the pass over a ruleset's
//! declarations in the file's order, which the other parts of the analysis
//! (expressions, calls, rules, time controls, variants, fits) serve.

use std::collections::{HashMap, HashSet};

use super::cexpr::CExpr;
use super::constants::{Fold, is_constant};
use super::ruleset::{FitDef, FitSource, FitTarget, Let, RuleDef, Ruleset, Switch};
use crate::base::suggest::suggest;
use crate::base::value::{Type, Value};
use crate::facts::clock::TimeControlDef;
use crate::rules::syntax::ast::{self, Item};
use crate::rules::syntax::error::{Pos, RuleError};
use crate::timeline::Kind;

pub(super) const BUILTIN_NAMES: &[&str] = &["white", "black", "draw"];
pub(super) const FUNCTIONS: &[&str] = &[
    "abs",
    "min",
    "max",
    "floor",
    "ceil",
    "round",
    "lower",
    "contains",
    "starts_with",
    "tag",
    "coalesce",
    "tc_base",
    "tc_increment",
    "tc_moves",
    "tc_scale",
    "number",
    "streak",
    "count",
    "sum",
    "since",
    "previous",
    "last",
    "tablebase",
    "hidden_book",
    "similarity",
    "accelerated_pairing",
];

pub(super) struct Analyzer<'a> {
    pub(super) path: &'a str,
    pub(super) src: &'a str,
    pub(super) fold: Fold,
    pub(super) consts: Vec<(String, CExpr)>,
    /// Each constant's value and type, found once when it is declared:
    /// a chain of constants that name the one before is then linear.
    pub(super) const_values: Vec<Value>,
    pub(super) const_types: Vec<Type>,
    pub(super) const_index: HashMap<String, usize>,
    pub(super) switches: Vec<Switch>,
    pub(super) switch_index: HashMap<String, usize>,
    pub(super) lets: Vec<Let>,
    /// Each `let`'s type, found once when it is declared.
    pub(super) let_types: Vec<Type>,
    pub(super) let_index: HashMap<String, usize>,
    pub(super) slots: usize,
    /// The event kind in scope while compiling an expression (None: constant).
    pub(super) scope: Option<Kind>,
    /// Whether stateful calls are allowed here.
    pub(super) stateful_ok: bool,
    pub(super) fits: Vec<FitDef>,
    /// The files of a chain of `extends` (path, text; the ruleset's own
    /// first), and the one whose declaration is being read.
    pub(super) files: Vec<(std::sync::Arc<str>, &'a str)>,
    pub(super) file: usize,
}

/// The declarations met so far, in the file's order, that the ruleset
/// keeps apart from the analyzer's names.
#[derive(Default)]
struct Declared {
    meta: Option<ast::Meta>,
    tcs: Vec<TimeControlDef>,
    variants: Vec<ast::Variant>,
    /// The file each of `variants` is written in.
    variant_files: Vec<usize>,
    rules: Vec<RuleDef>,
    rule_ids: HashMap<String, Pos>,
    /// The names of `tcs` and `variants`, to find a duplicate in one look.
    tc_names: HashSet<String>,
    variant_names: HashSet<String>,
}

pub(super) fn names(map: &HashMap<String, usize>) -> Vec<&str> {
    let mut v: Vec<&str> = map.keys().map(String::as_str).collect();
    v.sort();
    v
}

impl<'a> Analyzer<'a> {
    pub(super) fn new(path: &'a str, src: &'a str, fold: Fold) -> Self {
        Analyzer {
            path,
            src,
            fold,
            consts: Vec::new(),
            const_values: Vec::new(),
            const_types: Vec::new(),
            const_index: HashMap::new(),
            switches: Vec::new(),
            switch_index: HashMap::new(),
            lets: Vec::new(),
            let_types: Vec::new(),
            let_index: HashMap::new(),
            slots: 0,
            scope: None,
            stateful_ok: false,
            fits: Vec::new(),
            files: vec![(std::sync::Arc::from(path), src)],
            file: 0,
        }
    }

    /// The files of a chain of `extends`, the ruleset's own first.
    pub(super) fn with_files(mut self, files: Vec<(std::sync::Arc<str>, &'a str)>) -> Self {
        self.files = files;
        self
    }

    /// Read the declarations of file `k` from here on.
    pub(super) fn in_file(&mut self, k: usize) {
        self.file = k;
        self.src = self.files[k].1;
    }

    /// The file being read, where it is not the ruleset's own.
    pub(super) fn written_in(&self) -> Option<std::sync::Arc<str>> {
        (self.file > 0).then(|| self.files[self.file].0.clone())
    }

    fn taken(&self, name: &ast::Name) -> Result<(), RuleError> {
        let clash = self.const_index.contains_key(&name.text)
            || self.switch_index.contains_key(&name.text)
            || self.let_index.contains_key(&name.text);
        if clash {
            return Err(
                RuleError::new(name.pos, format!("`{}` is already defined", name.text))
                    .help("each constant, switch and let needs its own name"),
            );
        }
        if BUILTIN_NAMES.contains(&name.text.as_str()) || FUNCTIONS.contains(&name.text.as_str()) {
            return Err(RuleError::new(
                name.pos,
                format!("`{}` is a built-in name", name.text),
            ));
        }
        Ok(())
    }

    pub(super) fn kind(&self, name: &ast::Name) -> Result<Kind, RuleError> {
        Kind::from_name(&name.text).ok_or_else(|| {
            let help = suggest(&name.text, Kind::all().map(|k| k.name())).unwrap_or_else(|| {
                format!(
                    "the event kinds are {}",
                    Kind::all().map(|k| k.name()).collect::<Vec<_>>().join(", ")
                )
            });
            RuleError::new(name.pos, format!("unknown event kind `{}`", name.text)).help(help)
        })
    }

    pub(super) fn run(self, items: Vec<Item>) -> Result<Ruleset, RuleError> {
        self.run_tagged(items.into_iter().map(|i| (0, i)).collect())
            .map_err(|(_, e)| e)
    }

    /// [`Analyzer::run`] over declarations each of file `k` of
    /// [`Analyzer::with_files`]: an error names the file it is in.
    pub(super) fn run_tagged(
        mut self,
        items: Vec<(usize, Item)>,
    ) -> Result<Ruleset, (usize, RuleError)> {
        let mut found = Declared::default();
        for (k, item) in items {
            self.in_file(k);
            self.item(item, &mut found).map_err(|e| (k, e))?;
        }
        self.in_file(0);
        let Declared {
            meta,
            tcs,
            variants: variants_ast,
            variant_files,
            rules,
            ..
        } = found;
        self.finish(meta, tcs, variants_ast, &variant_files, rules)
    }

    /// The ruleset, once every declaration is read: the header, the
    /// variants (each of the file in `variant_files`) and the rest.
    fn finish(
        mut self,
        meta: Option<ast::Meta>,
        tcs: Vec<TimeControlDef>,
        variants_ast: Vec<ast::Variant>,
        variant_files: &[usize],
        rules: Vec<RuleDef>,
    ) -> Result<Ruleset, (usize, RuleError)> {
        let at0 = |e| (0, e);
        let Some(meta) = meta else {
            return Err(at0(RuleError::new(
                Pos::START,
                "the file has no `ruleset` header",
            )
            .help("start with `ruleset <id> \"<title>\" { regulation \"…\" }`")));
        };
        if let Some((_, pos)) = &meta.extends {
            // a chain is merged before the analysis (`extend`)
            return Err(at0(RuleError::new(
                *pos,
                "`extends` names a file, and this ruleset was given without the files beside it",
            )
            .help("check it where it is: `arbiter rules check FILE`")));
        }
        if let Some(tc) = &meta.time_control {
            Self::known_time_control(&tcs, &Self::time_control_names(&tcs), tc).map_err(at0)?;
        }
        let scoring = self.scoring(&meta).map_err(at0)?;
        Self::check_tiebreaks(&meta).map_err(at0)?;
        let variants = self.variants(&variants_ast, variant_files, &tcs)?;
        self.in_file(0);
        let applies = match &meta.applies {
            Some(a) => {
                self.scope = Some(Kind::Game);
                let c = self.expr(a).map_err(at0)?;
                self.scope = None;
                Some((c, a.pos.line))
            }
            None => None,
        };
        let sha256 = crate::base::digest::sha256_hex(self.src.as_bytes());
        if let Some(at) = meta.time_control_fit {
            self.fits.push(FitDef {
                written_in: self.written_in(),
                target: FitTarget::TimeControl,
                grid: Vec::new(),
                source: Some(FitSource::Record),
                line: at.line,
                column: at.column,
            });
        }
        Ok(Ruleset {
            path: self.path.to_string(),
            sha256,
            id: meta.id.text,
            title: meta.title,
            regulation: meta.regulation.unwrap_or_default(),
            format: meta.format.unwrap_or_default(),
            scoring,
            tiebreaks: meta.tiebreaks.into_iter().map(|t| t.text).collect(),
            time_control: meta.time_control.map(|t| t.text),
            applies,
            extends: Vec::new(),
            consts: self.consts,
            switches: self.switches,
            lets: self.lets,
            time_controls: tcs,
            variants,
            rules,
            slots: self.slots,
            fits: self.fits,
            evaluator: std::sync::OnceLock::new(),
        })
    }

    /// One declaration: a name of the analyzer's, or one `found` keeps.
    fn item(&mut self, item: Item, found: &mut Declared) -> Result<(), RuleError> {
        match item {
            Item::Ruleset(m) => {
                if found.meta.is_some() {
                    return Err(RuleError::new(
                        m.id.pos,
                        "a file holds one `ruleset` header",
                    ));
                }
                found.meta = Some(m);
            }
            Item::Const(name, e, fit) => {
                self.taken(&name)?;
                let c = self.constant(&e)?;
                let index = self.consts.len();
                self.const_index.insert(name.text.clone(), index);
                self.const_types.push(self.type_of(&c));
                self.const_values.push((self.fold)(&c, &self.const_values));
                self.consts.push((name.text, c));
                if let Some((pos, grid)) = fit {
                    let (grid, source) = self.fit_grid(index, &e, pos, &grid)?;
                    self.fits.push(FitDef {
                        written_in: self.written_in(),
                        target: FitTarget::Const(index),
                        grid,
                        source,
                        line: pos.line,
                        column: pos.column,
                    });
                }
            }
            Item::Switch {
                name,
                default,
                doc,
                fit,
            } => {
                self.taken(&name)?;
                if let Some(pos) = fit {
                    self.fits.push(FitDef {
                        written_in: self.written_in(),
                        target: FitTarget::Switch(self.switches.len()),
                        grid: vec![Value::Bool(default), Value::Bool(!default)],
                        source: None,
                        line: pos.line,
                        column: pos.column,
                    });
                }
                self.switch_index
                    .insert(name.text.clone(), self.switches.len());
                self.switches.push(Switch {
                    written_in: self.written_in(),
                    name: name.text,
                    default,
                    doc,
                    line: name.pos.line,
                });
            }
            Item::Let { name, on, expr } => {
                self.taken(&name)?;
                let kind = self.kind(&on)?;
                self.scope = Some(kind);
                self.stateful_ok = true;
                let c = self.expr(&expr)?;
                self.stateful_ok = false;
                self.scope = None;
                self.let_index.insert(name.text.clone(), self.lets.len());
                self.let_types.push(self.type_of(&c));
                self.lets.push(Let {
                    name: name.text,
                    on: kind,
                    expr: c,
                });
            }
            Item::TimeControl(tc) => {
                if !found.tc_names.insert(tc.name.text.clone()) {
                    return Err(RuleError::new(
                        tc.name.pos,
                        format!("time control `{}` is already defined", tc.name.text),
                    ));
                }
                found.tcs.push(self.time_control(&tc)?);
            }
            Item::Variant(v) => {
                if !found.variant_names.insert(v.name.text.clone()) {
                    return Err(RuleError::new(
                        v.name.pos,
                        format!("variant `{}` is already defined", v.name.text),
                    ));
                }
                found.variants.push(v);
                found.variant_files.push(self.file);
            }
            Item::Drop(id) => {
                return Err(RuleError::new(
                    id.pos,
                    "`drop rule` leaves out a rule of the ruleset this one extends",
                )
                .help("give the header `extends \"FILE\"`"));
            }
            Item::Rule(r) => {
                if let Some(prev) = found.rule_ids.get(&r.id.text) {
                    return Err(RuleError::new(
                        r.id.pos,
                        format!(
                            "rule `{}` is already defined on line {}",
                            r.id.text, prev.line
                        ),
                    )
                    .help("rule ids must be unique"));
                }
                found.rule_ids.insert(r.id.text.clone(), r.id.pos);
                found.rules.push(self.rule(&r)?);
            }
        }
        Ok(())
    }

    pub(super) fn constant(&mut self, e: &ast::Expr) -> Result<CExpr, RuleError> {
        let (scope, st) = (self.scope.take(), self.stateful_ok);
        self.stateful_ok = false;
        let r = self.expr(e);
        self.scope = scope;
        self.stateful_ok = st;
        let c = r?;
        if !is_constant(&c) {
            return Err(
                RuleError::new(e.pos, "a constant must not depend on the game")
                    .help("use `let NAME on move = …` for values that change during a game"),
            );
        }
        Ok(c)
    }
}
