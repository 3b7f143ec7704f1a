//! Variants: each one's ancestors (an `extends` chain, cycles rejected),
//! its `applies when` condition, and the constants, switches and time
//! control it sets.

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
        tcs: &[TimeControlDef],
    ) -> Result<Vec<VariantDef>, RuleError> {
        // variants: resolve parents and reject cycles
        let vnames: Vec<String> = variants_ast.iter().map(|v| v.name.text.clone()).collect();
        let mut variants = Vec::new();
        for v in variants_ast {
            let ancestors = ancestors(v, variants_ast, &vnames)?;
            variants.push(self.variant(v, ancestors, tcs)?);
        }
        Ok(variants)
    }

    /// One variant, its `ancestors` resolved: its condition and items.
    fn variant(
        &mut self,
        v: &ast::Variant,
        ancestors: Vec<usize>,
        tcs: &[TimeControlDef],
    ) -> Result<VariantDef, RuleError> {
        let mut def = VariantDef {
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
                    Self::known_time_control(tcs, n)?;
                    def.time_control = Some(n.text.clone());
                }
            }
        }
        Ok(def)
    }
}

/// The chain of `v`'s ancestors among `all` (named `vnames`), nearest
/// last: an unknown parent or a cycle is an error.
fn ancestors(
    v: &ast::Variant,
    all: &[ast::Variant],
    vnames: &[String],
) -> Result<Vec<usize>, RuleError> {
    let mut ancestors = Vec::new();
    let mut cur = v;
    let mut seen = vec![v.name.text.as_str()];
    while let Some(parent) = &cur.extends {
        let Some(pi) = vnames.iter().position(|n| *n == parent.text) else {
            let help = suggest(&parent.text, vnames.iter().map(String::as_str))
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
        seen.push(&all[pi].name.text);
        ancestors.push(pi);
        cur = &all[pi];
    }
    ancestors.reverse();
    Ok(ancestors)
}
