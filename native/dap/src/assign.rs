//! Expressions for values an adapter names without an `evaluateName`, so `set_value` can fall
//! back to `setExpression` when `setVariable` refuses a value.
//!
//! Why: gdb's DAP (14–18) gives no `evaluateName`, and its `setVariable` looks a child up by the
//! name it sent, keyed by int for array elements while the request names them by string: every
//! array element is "no variable named '2'". gdb does offer `setExpression`, and the path the
//! agent gave (`numbers[2]`, `point.x`) is an expression. This module rebuilds that expression
//! from the value's lineage: a variable of a locals/arguments/globals scope is its own name; an
//! element is `parent[i]`, a member `parent.member`; the one child gdb gives a pointer (named
//! `value`) is `(*parent)`. C syntax, so only for the adapters whose languages take it
//! (`Adapter::c_expressions`: gdb, lldb-dap); for the others no expression is made and
//! `setVariable`'s answer stands.
//!
//! The result is used only as that fallback, under the confirmation the core already asked
//! for `path = value`; the adapter evaluates it in the value's frame and its error (e.g. for a
//! name no expression can reach) is returned as is.

use std::collections::HashMap;

/// The expression that names a value: the adapter's `evaluateName`, else one rebuilt from its
/// parent's lineage. A value with children (`r` > 0) leaves its own lineage for theirs.
pub(crate) fn expression(
    lineages: &mut HashMap<i64, Lineage>,
    c_like: bool,
    (parent_ref, r): (Option<i64>, i64),
    name: &str,
    evaluate_name: Option<&str>,
    type_name: Option<&str>,
) -> Option<String> {
    let expression = evaluate_name.map(str::to_string).or_else(|| {
        parent_ref
            .and_then(|p| lineages.get(&p))
            .and_then(|l| l.child(name))
    });
    if r > 0
        && let Some(e) = &expression
        && let Some(l) = Lineage::value(c_like, e.clone(), type_name)
    {
        lineages.insert(r, l);
    }
    expression
}

/// The expression of a value that has children, remembered per `variablesReference` until the
/// next resume, to build its children's expressions.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Lineage {
    /// Empty for a scope (its variables are expressions by their own names).
    expression: String,
    /// A pointer or reference: gdb gives it one child, the pointee, named `value`.
    pointer: bool,
}

impl Lineage {
    /// A scope (DAP `Scope`) whose variables are plain names: locals, arguments, globals (not
    /// registers, whose names are not C expressions; gdb's `setVariable` sets those by name).
    pub(crate) fn scope(c_like: bool, name: Option<&str>, hint: Option<&str>) -> Option<Lineage> {
        let name = name.unwrap_or("").to_ascii_lowercase();
        let named_by_name = matches!(hint, Some("locals" | "arguments"))
            || ["local", "argument", "global", "static"]
                .iter()
                .any(|k| name.contains(k));
        (c_like && named_by_name && !name.contains("register")).then(|| Lineage {
            expression: String::new(),
            pointer: false,
        })
    }

    /// The lineage of a value with children, from its expression and type.
    pub(crate) fn value(
        c_like: bool,
        expression: String,
        type_name: Option<&str>,
    ) -> Option<Lineage> {
        let pointer = type_name.is_some_and(|t| {
            let t = t.trim_end();
            t.ends_with('*') || t.ends_with('&')
        });
        c_like.then_some(Lineage {
            expression,
            pointer,
        })
    }

    /// The expression of this value's child named `name`, if C syntax can name it.
    pub(crate) fn child(&self, name: &str) -> Option<String> {
        if self.expression.is_empty() {
            return is_identifier(name).then(|| name.to_string());
        }
        let parent = postfix(&self.expression);
        if self.pointer && name == "value" {
            return Some(format!("(*{parent})"));
        }
        // gdb names elements "2", lldb-dap "[2]"; both index from the array's real bounds.
        let index = name
            .strip_prefix('[')
            .and_then(|n| n.strip_suffix(']'))
            .unwrap_or(name);
        if !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit()) {
            return Some(format!("{parent}[{index}]"));
        }
        // gdb follows pointers on `.`, so `p.x` reaches a member through a pointer too.
        is_identifier(name).then(|| format!("{parent}.{name}"))
    }
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// `expression` usable before `[i]` or `.m`: as is when it is a chain of names, indices and
/// members (what this module builds), else parenthesized (an adapter's `*p`, `a + 1`).
fn postfix(expression: &str) -> String {
    let simple = expression
        .chars()
        .all(|c| c == '_' || c == '.' || c == '[' || c == ']' || c.is_ascii_alphanumeric())
        || (expression.starts_with('(') && expression.ends_with(')') && balanced_outer(expression));
    if simple {
        expression.to_string()
    } else {
        format!("({expression})")
    }
}

/// `(…)` whose first parenthesis closes at the end (so `(a) + (b)` is not one group).
fn balanced_outer(expression: &str) -> bool {
    let mut depth = 0usize;
    for (i, c) in expression.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 && i + 1 != expression.len() {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locals() -> Lineage {
        Lineage::scope(true, Some("Locals"), Some("locals")).unwrap()
    }

    fn value(expression: &str, type_name: Option<&str>) -> Lineage {
        Lineage::value(true, expression.into(), type_name).unwrap()
    }

    #[test]
    fn scope_variables_elements_and_members_are_c_expressions() {
        assert_eq!(locals().child("numbers").as_deref(), Some("numbers"));
        let numbers = value("numbers", Some("int [5]"));
        assert_eq!(numbers.child("2").as_deref(), Some("numbers[2]"));
        assert_eq!(numbers.child("[2]").as_deref(), Some("numbers[2]"));
        let grid = value("grid[1]", Some("struct cell [4]"));
        assert_eq!(grid.child("3").as_deref(), Some("grid[1][3]"));
        let point = value("origin", Some("struct point"));
        assert_eq!(point.child("x").as_deref(), Some("origin.x"));
    }

    #[test]
    fn a_pointers_only_child_is_the_pointee() {
        let p = value("head", Some("struct node *"));
        assert_eq!(p.child("value").as_deref(), Some("(*head)"));
        let pointee = value("(*head)", Some("struct node"));
        assert_eq!(pointee.child("next").as_deref(), Some("(*head).next"));
        // a struct member that happens to be called `value` is a member
        let s = value("s", Some("struct box"));
        assert_eq!(s.child("value").as_deref(), Some("s.value"));
        let r = value("ref", Some("std::string &"));
        assert_eq!(r.child("value").as_deref(), Some("(*ref)"));
    }

    #[test]
    fn an_adapters_own_expression_is_parenthesized_when_not_postfix() {
        let v = value("*argv", Some("char *"));
        assert_eq!(v.child("0").as_deref(), Some("(*argv)[0]"));
        let v = value("(a) + (b)", None);
        assert_eq!(v.child("x").as_deref(), Some("((a) + (b)).x"));
    }

    #[test]
    fn lineage_follows_references_down_the_tree() {
        let mut table = HashMap::new();
        table.insert(1, locals());
        let gdb = true;
        // tri (ref 5) → corners (ref 6) → element 2 (ref 7) → y
        assert_eq!(
            expression(
                &mut table,
                gdb,
                (Some(1), 5),
                "tri",
                None,
                Some("struct shape")
            )
            .as_deref(),
            Some("tri")
        );
        let corners = expression(
            &mut table,
            gdb,
            (Some(5), 6),
            "corners",
            None,
            Some("struct point [3]"),
        );
        assert_eq!(corners.as_deref(), Some("tri.corners"));
        assert_eq!(
            expression(
                &mut table,
                gdb,
                (Some(6), 7),
                "2",
                None,
                Some("struct point")
            )
            .as_deref(),
            Some("tri.corners[2]")
        );
        assert_eq!(
            expression(&mut table, gdb, (Some(7), 0), "y", None, Some("int")).as_deref(),
            Some("tri.corners[2].y")
        );
        // the adapter's own evaluateName wins; an unknown parent gives nothing
        assert_eq!(
            expression(&mut table, gdb, (Some(7), 0), "y", Some("p->y"), None).as_deref(),
            Some("p->y")
        );
        assert_eq!(
            expression(&mut table, gdb, (Some(99), 0), "y", None, None),
            None
        );
        // a leaf leaves no lineage
        assert!(!table.contains_key(&0));
    }

    #[test]
    fn names_no_expression_can_reach_and_other_scopes_give_none() {
        let s = value("s", Some("struct s"));
        assert_eq!(s.child("<anonymous union>"), None);
        assert_eq!(s.child(""), None);
        assert_eq!(locals().child("$1"), None);
        assert_eq!(
            Lineage::scope(true, Some("Registers"), Some("registers")),
            None
        );
        assert!(Lineage::scope(true, Some("Globals"), None).is_some());
        assert!(Lineage::scope(true, Some("Locals"), None).is_some());
        // not C: debugpy and delve send their own evaluateName
        assert_eq!(Lineage::scope(false, Some("Locals"), Some("locals")), None);
        assert_eq!(Lineage::value(false, "xs".into(), None), None);
    }
}
