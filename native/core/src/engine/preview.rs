//! One-level previews for objects whose rendered value is only an address: Python's default
//! `<__main__.Item object at 0x7f…>`, Java's `Item@1a2b`. Such a value tells an agent nothing and
//! costs it a turn of expand_variable; the preview `Item(name='pen', price=1.5, qty=4)` is built
//! from the object's first children, in the core, for every backend. Bounded: at most
//! [`FIELDS`] fields, each value cut at [`FIELD_CHARS`], the whole at the configured value length.

use super::context::Call;
use super::values;
use crate::backend::{ValueNode, ValueScope};

/// Fields shown in a preview at most.
const FIELDS: u32 = 6;
/// Characters of one field's value in a preview.
const FIELD_CHARS: usize = 40;
/// Objects previewed per result at most (each costs one debugger call).
pub const PER_RESULT: usize = 12;

/// The class name if `value` is a default address repr, else `None`.
pub fn address_repr_class(value: &str) -> Option<&str> {
    let v = value.trim();
    // Python: <module.Class object at 0x7f3a…>
    if let Some(inner) = v.strip_prefix('<').and_then(|s| s.strip_suffix('>')) {
        let (qualified, addr) = inner.split_once(" object at 0x")?;
        if addr.chars().all(|c| c.is_ascii_hexdigit()) && !qualified.contains(' ') {
            return Some(qualified.rsplit('.').next().unwrap_or(qualified));
        }
        return None;
    }
    // Java (JDI / IntelliJ): Item@1a2b or {Item@1a2b}
    let inner = v
        .strip_prefix('{')
        .and_then(|s| s.strip_suffix('}'))
        .unwrap_or(v);
    let (qualified, hash) = inner.split_once('@')?;
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '.' || c == '$';
    if !qualified.is_empty()
        && qualified.chars().all(ident)
        && !hash.is_empty()
        && hash.chars().all(|c| c.is_ascii_hexdigit())
    {
        return Some(qualified.rsplit('.').next().unwrap_or(qualified));
    }
    None
}

/// Whether a child is a field worth showing (not debugpy's "special variables" groups or
/// dunder attributes).
fn is_field(child: &ValueNode) -> bool {
    child.scope != ValueScope::Synthetic
        && !child.name.starts_with("__")
        && !child.name.contains(' ')
}

/// `Class(a=1, b='x', …)` from the children; `more` says whether fields were left out.
pub fn format(class: &str, fields: &[ValueNode], more: bool, max_chars: usize) -> String {
    let mut parts: Vec<String> = fields
        .iter()
        .map(|f| {
            let v = if f.value.chars().count() > FIELD_CHARS {
                format!("{}…", f.value.chars().take(FIELD_CHARS).collect::<String>())
            } else {
                f.value.clone()
            };
            format!("{}={v}", f.name)
        })
        .collect();
    if more {
        parts.push("…".into());
    }
    let s = format!("{class}({})", parts.join(", "));
    if s.chars().count() > max_chars {
        format!(
            "{}…)",
            s.chars()
                .take(max_chars.saturating_sub(2))
                .collect::<String>()
        )
    } else {
        s
    }
}

/// A preview and the fields it shows.
pub struct Preview {
    pub text: String,
    pub fields: Vec<(String, String)>,
}

/// The preview of `node`, if its value is an address repr and its children can be read.
/// Secrets among the fields are redacted like everywhere else; failures just mean no preview.
pub async fn preview(c: &Call<'_>, sid: &str, node: &ValueNode) -> Option<Preview> {
    let class = address_repr_class(&node.value)?;
    let handle = node
        .children_handle
        .as_ref()
        .filter(|_| node.has_children)?;
    let backend = c.engine.backend.clone();
    // A few extra children: debugpy lists its synthetic groups first.
    let page = c
        .bk("children", backend.children(sid, handle, 0, FIELDS + 3))
        .await
        .ok()?;
    let mut fields: Vec<ValueNode> = page.children.into_iter().filter(is_field).collect();
    let more =
        fields.len() > FIELDS as usize || page.total.is_some_and(|t| t > (FIELDS + 3) as u64);
    fields.truncate(FIELDS as usize);
    if fields.is_empty() {
        return None;
    }
    for f in &mut fields {
        f.value = values::visible(&c.cfg, &f.name, f.type_name.as_deref(), &f.value).text;
    }
    let text = format(class, &fields, more, c.cfg.max_value_length);
    Some(Preview {
        text,
        fields: fields.into_iter().map(|f| (f.name, f.value)).collect(),
    })
}

/// Previews for the address-repr nodes among `nodes` (the first [`PER_RESULT`]), fetched
/// concurrently; `None` where there is none.
pub async fn previews(c: &Call<'_>, sid: &str, nodes: &[&ValueNode]) -> Vec<Option<Preview>> {
    let mut budget = PER_RESULT;
    let futures = nodes.iter().map(|n| {
        let wanted = budget > 0 && address_repr_class(&n.value).is_some() && n.has_children;
        if wanted {
            budget -= 1;
        }
        async move {
            if wanted {
                preview(c, sid, n).await
            } else {
                None
            }
        }
    });
    futures::future::join_all(futures).await
}

/// Replaces a shown value by its preview (`preview: true` says the core built it).
pub fn put(m: &mut super::out::ValueNode, preview: Preview) {
    m.truncated = false;
    m.value_length = None;
    m.value = preview.text;
    m.preview = true;
    m.preview_fields = preview.fields;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_reprs_are_recognised_and_real_values_are_not() {
        assert_eq!(
            address_repr_class("<__main__.Item object at 0x7f3a2c1d0e80>"),
            Some("Item")
        );
        assert_eq!(
            address_repr_class("<shop.models.Order object at 0x10af>"),
            Some("Order")
        );
        assert_eq!(address_repr_class("Item@1a2b"), Some("Item"));
        assert_eq!(address_repr_class("{com.shop.Item@7f}"), Some("Item"));
        for real in [
            "Item(name='pen')",
            "<function f at 0x7f>",
            "'a@b.c'",
            "user@example.com",
            "[1, 2]",
            "{'a': 1}",
            "42",
        ] {
            assert_eq!(address_repr_class(real), None, "{real}");
        }
    }

    #[test]
    fn previews_are_bounded() {
        let field = |n: &str, v: &str| ValueNode {
            name: n.into(),
            value: v.into(),
            ..Default::default()
        };
        let fields = [
            field("name", "'pen'"),
            field("price", "1.5"),
            field("qty", "4"),
        ];
        assert_eq!(
            format("Item", &fields, false, 200),
            "Item(name='pen', price=1.5, qty=4)"
        );
        assert_eq!(
            format("Item", &fields, true, 200),
            "Item(name='pen', price=1.5, qty=4, …)"
        );
        let long = [field("text", &"x".repeat(100))];
        assert_eq!(
            format("Doc", &long, false, 200),
            format!("Doc(text={}…)", "x".repeat(40))
        );
        assert!(format("Item", &fields, false, 12).chars().count() <= 12);
    }
}
