//! Variants: each one's ancestors (an `extends` chain, cycles rejected),
//! its `applies when` condition, and the constants, switches and time
//! control it sets.

use std::collections::{HashMap, HashSet};

use super::analyzer::{Analyzer, names};
use super::ruleset::VariantDef;
use crate::base::suggest::suggest;
use crate::facts::clock::TimeControlDef;
use crate::rules::syntax::ast;
use crate::rules::syntax::error::RuleError;
use crate::timeline::Kind;

impl Analyzer<'_> {
    /// The variants declared (`variants_ast`), in order; `tcs` the time
    /// controls declared.
    pub(super) fn variants(
        &mut self,
        variants_ast: &[ast::Variant],
        files: &[usize],
        tcs: &[TimeControlDef],
    ) -> Result<Vec<VariantDef>, (usize, RuleError)> {
        // variants: resolve parents and reject cycles
        let index: HashMap<&str, usize> = variants_ast
            .iter()
            .enumerate()
            .map(|(i, v)| (v.name.text.as_str(), i))
            .collect();
        let known = Self::time_control_names(tcs);
        let mut variants = Vec::new();
        for (v, &k) in variants_ast.iter().zip(files) {
            self.in_file(k);
            let ancestors = ancestors(v, variants_ast, &index).map_err(|e| (k, e))?;
            variants.push(
                self.variant(v, ancestors, tcs, &known)
                    .map_err(|e| (k, e))?,
            );
        }
        Ok(variants)
    }

    /// One variant, its `ancestors` resolved: its condition and items.
    fn variant(
        &mut self,
        v: &ast::Variant,
        ancestors: Vec<usize>,
        tcs: &[TimeControlDef],
        known: &HashSet<&str>,
    ) -> Result<VariantDef, RuleError> {
        let mut def = VariantDef {
            written_in: self.written_in(),
            name: v.name.text.clone(),
            ancestors,
            applies: None,
            consts: Vec::new(),
            switches: Vec::new(),
            time_control: None,
            line: v.name.pos.line,
        };
        if let Some(a) = &v.applies {
            self.scope = Some(Kind::Game);
            let c = self.expr(a)?;
            self.scope = None;
            def.applies = Some(c);
        }
        for it in &v.items {
            match it {
                ast::VariantItem::Const(n, e) => {
                    let Some(&idx) = self.const_index.get(&n.text) else {
                        let help =
                            suggest(&n.text, names(&self.const_index)).unwrap_or_else(|| {
                                "a variant can only change constants declared with `const`".into()
                            });
                        return Err(RuleError::new(
                            n.pos,
                            format!("unknown constant `{}`", n.text),
                        )
                        .help(help));
                    };
                    let c = self.constant(e)?;
                    def.consts.push((idx, c));
                }
                ast::VariantItem::Switch(n, b, _) => {
                    let Some(&idx) = self.switch_index.get(&n.text) else {
                        let help = suggest(&n.text, names(&self.switch_index))
                            .unwrap_or_else(|| "declare it with `switch NAME = true \"…\"`".into());
                        return Err(
                            RuleError::new(n.pos, format!("unknown switch `{}`", n.text))
                                .help(help),
                        );
                    };
                    def.switches.push((idx, *b));
                }
                ast::VariantItem::TimeControl(n) => {
                    Self::known_time_control(tcs, known, n)?;
                    def.time_control = Some(n.text.clone());
                }
            }
        }
        Ok(def)
    }
}

/// The longest `extends` chain a variant may have: its ancestors, at most
/// this many. Each variant keeps its whole chain, so a longer one would
/// cost the square of its length.
pub const EXTENDS_LIMIT: usize = 32;

/// The chain of `v`'s ancestors among `all` (whose index by name is
/// `index`), nearest last: an unknown parent, a cycle or a chain of more
/// than [`EXTENDS_LIMIT`] ancestors is an error.
fn ancestors(
    v: &ast::Variant,
    all: &[ast::Variant],
    index: &HashMap<&str, usize>,
) -> Result<Vec<usize>, RuleError> {
    let mut ancestors = Vec::new();
    let mut cur = v;
    let mut seen = vec![v.name.text.as_str()];
    while let Some(parent) = &cur.extends {
        let Some(&pi) = index.get(parent.text.as_str()) else {
            let help = suggest(&parent.text, all.iter().map(|x| x.name.text.as_str()))
                .unwrap_or_else(|| "declare the parent variant too".into());
            return Err(
                RuleError::new(parent.pos, format!("unknown variant `{}`", parent.text)).help(help),
            );
        };
        if seen.contains(&parent.text.as_str()) {
            return Err(RuleError::new(
                parent.pos,
                format!(
                    "variant inheritance cycle: {} → {}",
                    seen.join(" → "),
                    parent.text
                ),
            ));
        }
        if ancestors.len() == EXTENDS_LIMIT {
            let at = v.extends.as_ref().map_or(v.name.pos, |p| p.pos);
            return Err(RuleError::new(
                at,
                format!(
                    "variant `{}` extends a chain of more than {EXTENDS_LIMIT} variants",
                    v.name.text
                ),
            )
            .help("let it extend a variant nearer the base"));
        }
        seen.push(&all[pi].name.text);
        ancestors.push(pi);
        cur = &all[pi];
    }
    ancestors.reverse();
    Ok(ancestors)
}
