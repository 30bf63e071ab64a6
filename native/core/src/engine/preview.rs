//! Previews for values whose rendered value is only a placeholder: Python's default
//! `<__main__.Item object at 0x7f…>`, Java's `Item@1a2b`, a C struct or array as gdb (`{…}`,
//! `[2 items]`) or lldb-dap (`point @ 0x7ffe…`) show it, a PHP array or object as Xdebug gives
//! it (`array(2)`, `Cart`); natives inline as `{x = 1, y = 2}` and `[2, 0]`, PHP arrays as
//! `[45, 15]` or `['name' => "Ada"]`, two levels deep. Such a value tells an agent nothing and
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

/// What a value placeholder stands for: an object shown by its address, or a native struct or
/// array the debugger shows only as `{…}`, `[2 items]` (gdb) or `point @ 0x7ffe…` (lldb-dap).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape<'a> {
    Object(&'a str),
    Struct,
    Array,
    /// A Python list or tuple whose repr holds address reprs (`[<Selector object at 0x…>,
    /// None]`): its items previewed, `[Selector(kind='FIRST', …), None]`.
    Sequence,
    /// A Python tuple, list or dict whose repr debugpy cut at its third level (`((1, (...)),)`):
    /// rebuilt from the children, deeper.
    Nested,
    /// A PHP array as Xdebug shows it, `array(2)`: a list `[45, 15]` when its keys are 0..n-1 in
    /// order, else `['k' => v, 3 => v]`.
    PhpArray,
}

/// Python containers debugpy's repr elides below two levels.
const CONTAINERS: [&str; 3] = ["tuple", "list", "dict"];
/// Levels a nested repr is rebuilt to below the value (each read shows two more).
const NESTED_LEVELS: u32 = 6;
/// Children read per nested container at most.
const NESTED_ITEMS: u32 = 20;
/// Debugger reads one rebuilt repr costs at most.
const NESTED_READS: u32 = 24;

fn shape<'a>(value: &'a str, type_name: Option<&str>) -> Option<Shape<'a>> {
    if let Some(class) = address_repr_class(value) {
        return Some(Shape::Object(class));
    }
    let v = value.trim();
    // PHP (DBGp): an array is `array(N)` of type `array`; an object's value is its class name,
    // which is also its type (`App\Cart`).
    if type_name == Some("array")
        && v.strip_prefix("array(")
            .and_then(|r| r.strip_suffix(')'))
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    {
        return Some(Shape::PhpArray);
    }
    const PHP_SCALARS: [&str; 6] = ["null", "bool", "int", "float", "string", "uninitialized"];
    if type_name == Some(v)
        && !PHP_SCALARS.contains(&v)
        && v.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '\\')
        && v.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '\\')
    {
        return Some(Shape::Object(v.rsplit('\\').next().unwrap_or(v)));
    }
    if (v.starts_with('[') || v.starts_with('(')) && v.contains(" object at 0x") {
        return Some(Shape::Sequence);
    }
    if type_name.is_some_and(|t| CONTAINERS.contains(&t))
        && (v.contains("(...)") || v.contains("[...]") || v.contains("{...}"))
    {
        return Some(Shape::Nested);
    }
    let array_type = type_name.is_some_and(|t| t.trim_end().ends_with(']'));
    if v == "{…}" || v == "{...}" {
        return Some(if array_type {
            Shape::Array
        } else {
            Shape::Struct
        });
    }
    // gdb: "[2 items]"
    if let Some(n) = v.strip_prefix('[').and_then(|r| r.strip_suffix(" items]"))
        && n.chars().all(|c| c.is_ascii_digit())
    {
        return Some(Shape::Array);
    }
    // lldb-dap: "point @ 0x7fffffffe4b8", "unsigned short[2] @ 0x555555558028"
    if let Some((what, addr)) = v.rsplit_once(" @ 0x")
        && !what.is_empty()
        && addr.chars().all(|c| c.is_ascii_hexdigit())
    {
        return Some(if what.ends_with(']') || array_type {
            Shape::Array
        } else {
            Shape::Struct
        });
    }
    None
}

/// Items of an array shown inline in a listing (a stop's locals, get_variables).
const ITEMS: u32 = 8;
/// Items of an array the agent asked for by name, at most: as many as its room holds at
/// [`ITEM_CHARS`] each (tenth set: 30 module names shown as 8 and `…` took a second capture).
const ASKED_ITEMS: u32 = 100;
/// Characters an item is counted at when a value's room decides how many items it reads.
const ITEM_CHARS: usize = 20;
/// Nested placeholders among one value's fields that get their own inline value.
const NESTED: usize = 4;

/// Whether a child is a field worth showing (not debugpy's "special variables" groups or
/// dunder attributes).
fn is_field(child: &ValueNode) -> bool {
    child.scope != ValueScope::Synthetic
        && !child.name.starts_with("__")
        && !child.name.contains(' ')
}

/// `Class(a=1, b='x', …)` from the children; `more` says whether fields were left out.
pub fn format(
    class: &str,
    fields: &[ValueNode],
    more: bool,
    max_chars: usize,
    field: usize,
) -> String {
    let mut parts: Vec<String> = fields
        .iter()
        .map(|f| format!("{}={}", f.name, cut(&f.value, field)))
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

/// The preview of `node`, if its value is a placeholder (an address repr, a native struct or
/// array) and its children can be read. Secrets among the fields are redacted like everywhere
/// else; failures just mean no preview.
pub async fn preview(c: &Call<'_>, sid: &str, node: &ValueNode) -> Option<Preview> {
    preview_at(c, sid, node, 2, Room::listed(c)).await
}

/// Characters a preview takes: the whole, and each field's value in it.
#[derive(Clone, Copy)]
pub struct Room {
    whole: usize,
    field: usize,
    /// Items of an array read at most.
    items: u32,
}

impl Room {
    /// In a listing (variables, a stop's locals): the setting's value length, fields short.
    fn listed(c: &Call<'_>) -> Room {
        Room {
            whole: c.cfg.max_value_length,
            field: FIELD_CHARS,
            items: ITEMS,
        }
    }

    /// A value the agent asked for by name, shown up to `whole` characters (its share of
    /// what evaluate_expression shows): its fields get a share of that, so a record in a
    /// filtered list reads whole (`[3 => ['at' => …, 'units' => 7500, 'meta' => …]]`).
    pub fn asked(c: &Call<'_>, whole: usize) -> Room {
        let whole = whole.max(c.cfg.max_value_length);
        Room {
            whole,
            // A quarter: the first fields of a record read whole, the rest cut by the whole.
            field: (whole / 4).clamp(FIELD_CHARS, WHOLE_FIELD_CHARS),
            items: u32::try_from(whole / ITEM_CHARS)
                .unwrap_or(u32::MAX)
                .clamp(ITEMS, ASKED_ITEMS),
        }
    }

    /// A field's own preview (a level down): the field's room.
    fn inner(self) -> Room {
        Room {
            whole: self.field,
            field: (self.field / ITEMS as usize).max(FIELD_CHARS),
            items: ITEMS,
        }
    }
}

/// Characters of one field's value at most, however much room a value asked for has.
const WHOLE_FIELD_CHARS: usize = 2_000;

/// [`preview`], with nested native placeholders previewed down to `depth` levels, in `room`.
fn preview_at<'a>(
    c: &'a Call<'a>,
    sid: &'a str,
    node: &'a ValueNode,
    depth: u32,
    room: Room,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<Preview>> + Send + 'a>> {
    Box::pin(async move {
        let shape = shape(&node.value, node.type_name.as_deref())?;
        if shape == Shape::Nested {
            let reads = std::sync::atomic::AtomicU32::new(NESTED_READS);
            let text = nested(c, sid, node, NESTED_LEVELS, &reads).await?;
            let text = values::visible(&c.cfg, &node.name, node.type_name.as_deref(), &text).text;
            return Some(Preview {
                text,
                fields: Vec::new(),
            });
        }
        let handle = node
            .children_handle
            .as_ref()
            .filter(|_| node.has_children)?;
        let width = if matches!(shape, Shape::Array | Shape::Sequence | Shape::PhpArray) {
            room.items
        } else {
            FIELDS
        };
        let backend = c.engine.backend.clone();
        // A few extra children: debugpy lists its synthetic groups first.
        let page = c
            .bk("children", backend.children(sid, handle, 0, width + 3))
            .await
            .ok()?;
        let mut fields: Vec<ValueNode> = page
            .children
            .into_iter()
            .filter(is_field)
            // A sequence's items, not debugpy's `len()` beside them.
            .filter(|f| shape != Shape::Sequence || f.name.chars().all(|c| c.is_ascii_digit()))
            .collect();
        let more =
            fields.len() > width as usize || page.total.is_some_and(|t| t > (width + 3) as u64);
        fields.truncate(width as usize);
        // An array's items are its children one for one (PHP's, gdb's, lldb's), so the count
        // left out is known; a Python sequence's children include debugpy's groups.
        let more = match (more, page.total) {
            (false, _) => More::No,
            (true, Some(t)) if matches!(shape, Shape::Array | Shape::PhpArray) => {
                More::Count(t.saturating_sub(fields.len() as u64))
            }
            (true, _) => More::Unknown,
        };
        if fields.is_empty() && matches!(shape, Shape::Object(_)) {
            return None;
        }
        if depth > 1 {
            let nested: Vec<usize> = (0..fields.len())
                .filter(|&i| {
                    let f = &fields[i];
                    f.has_children
                        && match shape_of(f) {
                            Some(Shape::Struct | Shape::Array | Shape::PhpArray) => true,
                            Some(Shape::Object(_)) => {
                                matches!(shape, Shape::Sequence | Shape::PhpArray)
                            }
                            _ => false,
                        }
                })
                .take(NESTED)
                .collect();
            let inner = futures::future::join_all(
                nested
                    .iter()
                    .map(|&i| preview_at(c, sid, &fields[i], depth - 1, room.inner())),
            )
            .await;
            for (i, p) in nested.into_iter().zip(inner) {
                if let Some(p) = p {
                    fields[i].value = p.text;
                }
            }
        }
        for f in &mut fields {
            f.value = values::visible(&c.cfg, &f.name, f.type_name.as_deref(), &f.value).text;
        }
        let text = match shape {
            Shape::Object(class) => {
                format(class, &fields, more != More::No, room.whole, room.field)
            }
            Shape::Struct | Shape::Array => native(shape, &fields, more, room.whole, room.field),
            Shape::Nested => return None,
            Shape::PhpArray => php_array(&fields, more, room.whole, room.field),
            Shape::Sequence => {
                let items = native(Shape::Array, &fields, more, room.whole, room.field);
                if node.value.trim_start().starts_with('(') {
                    format!("({})", &items[1..items.len() - 1])
                } else {
                    items
                }
            }
        };
        Some(Preview {
            text,
            fields: fields.into_iter().map(|f| (f.name, f.value)).collect(),
        })
    })
}

/// `node`'s repr with its elided levels (`(...)`) read from the children, `levels` deep; None
/// when the children cannot be read. Items past [`NESTED_ITEMS`] are `…`.
fn nested<'a>(
    c: &'a Call<'a>,
    sid: &'a str,
    node: &'a ValueNode,
    levels: u32,
    reads: &'a std::sync::atomic::AtomicU32,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<String>> + Send + 'a>> {
    Box::pin(async move {
        use std::sync::atomic::Ordering;
        let elided = |v: &str| v.contains("(...)") || v.contains("[...]") || v.contains("{...}");
        let kind = node.type_name.as_deref()?;
        if !CONTAINERS.contains(&kind) || !elided(&node.value) || levels == 0 {
            return Some(node.value.clone());
        }
        // Out of reads: the rest stays as the debugger cut it.
        if reads
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_err()
        {
            return Some(node.value.clone());
        }
        let handle = node
            .children_handle
            .as_ref()
            .filter(|_| node.has_children)?;
        let backend = c.engine.backend.clone();
        // A few extra: debugpy lists its groups ("special variables", `len()`) beside the items.
        let page = c
            .bk(
                "children",
                backend.children(sid, handle, 0, NESTED_ITEMS + 4),
            )
            .await
            .ok()?;
        let items: Vec<ValueNode> = page
            .children
            .into_iter()
            .filter(|k| k.scope != ValueScope::Synthetic && k.name != "len()")
            .filter(|k| kind == "dict" || k.name.chars().all(|ch| ch.is_ascii_digit()))
            .filter(|k| !k.name.ends_with(" variables"))
            .collect();
        let more = items.len() > NESTED_ITEMS as usize
            || page.total.is_some_and(|t| t > (NESTED_ITEMS + 4) as u64);
        let shown = items.iter().take(NESTED_ITEMS as usize);
        let values =
            futures::future::join_all(shown.map(|k| nested(c, sid, k, levels - 1, reads))).await;
        let mut parts: Vec<String> = Vec::new();
        for (k, v) in items.iter().zip(values) {
            let v = v.unwrap_or_else(|| k.value.clone());
            parts.push(if kind == "dict" {
                format!("{}: {v}", k.name)
            } else {
                v
            });
        }
        if more {
            parts.push("…".into());
        }
        Some(match kind {
            "tuple" if parts.len() == 1 => format!("({},)", parts[0]),
            "tuple" => format!("({})", parts.join(", ")),
            "list" => format!("[{}]", parts.join(", ")),
            _ => format!("{{{}}}", parts.join(", ")),
        })
    })
}

fn shape_of(node: &ValueNode) -> Option<Shape<'_>> {
    shape(&node.value, node.type_name.as_deref())
}

/// `{x = 1, y = 2}` or `[2, 0]` (gdb's own notation), `…` where items were left out; cut at
/// `max_chars`.
/// One field's value, cut at `field` characters.
fn cut(v: &str, field: usize) -> String {
    if v.chars().count() > field {
        format!("{}…", v.chars().take(field).collect::<String>())
    } else {
        v.to_string()
    }
}

fn native(
    shape: Shape<'_>,
    fields: &[ValueNode],
    more: More,
    max_chars: usize,
    field: usize,
) -> String {
    let parts: Vec<String> = fields
        .iter()
        .map(|f| match shape {
            Shape::Array => cut(&f.value, field),
            _ => format!("{} = {}", f.name, cut(&f.value, field)),
        })
        .collect();
    let (open, close) = if shape == Shape::Array {
        ('[', ']')
    } else {
        ('{', '}')
    };
    bracketed(open, close, parts, more, max_chars)
}

/// Items left out of a preview: how many when the debugger said.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum More {
    No,
    Unknown,
    Count(u64),
}

/// `parts` between `open` and `close`, `…` after them when items were left out, the whole cut
/// at `max_chars`. With a count of what was left out, whole items are kept and the rest
/// counted (`[1, 2, … 28 more]`), so a cut list still says its size.
fn bracketed(
    open: char,
    close: char,
    mut parts: Vec<String>,
    more: More,
    max_chars: usize,
) -> String {
    let chars = |p: &[String]| p.iter().map(|x| x.chars().count() + 2).sum::<usize>();
    match more {
        More::No if chars(&parts) <= max_chars => {}
        More::No | More::Count(_) => {
            let mut left = match more {
                More::Count(n) => n,
                _ => 0,
            };
            // Room for `… NNN more` after the kept items; the first item is kept (cut below).
            while parts.len() > 1
                && chars(&parts) + 2 + format!("… {} more", left + 1).len() > max_chars
            {
                parts.pop();
                left += 1;
            }
            if left > 0 {
                parts.push(format!("… {left} more"));
            }
        }
        More::Unknown => parts.push("…".into()),
    }
    let s = format!("{open}{}{close}", parts.join(", "));
    if s.chars().count() > max_chars {
        format!(
            "{}…{close}",
            s.chars()
                .take(max_chars.saturating_sub(2))
                .collect::<String>()
        )
    } else {
        s
    }
}

/// A PHP array from its elements (named by their keys): `[45, 15]` for a list, else
/// `['name' => "Ada", 3 => 1]`; `…` where items were left out; cut at `max_chars`.
fn php_array(items: &[ValueNode], more: More, max_chars: usize, field: usize) -> String {
    let list = items
        .iter()
        .enumerate()
        .all(|(i, f)| f.name == i.to_string());
    let parts = items
        .iter()
        .map(|f| {
            if list {
                cut(&f.value, field)
            } else if f.name.parse::<i64>().is_ok() {
                format!("{} => {}", f.name, cut(&f.value, field))
            } else {
                format!("'{}' => {}", f.name, cut(&f.value, field))
            }
        })
        .collect();
    bracketed('[', ']', parts, more, max_chars)
}

/// Previews for the address-repr nodes among `nodes` (the first [`PER_RESULT`]), fetched
/// concurrently; `None` where there is none.
pub async fn previews(c: &Call<'_>, sid: &str, nodes: &[&ValueNode]) -> Vec<Option<Preview>> {
    previews_in(c, sid, nodes, Room::listed(c)).await
}

/// [`previews`] of values the agent asked for, each in `room` ([`Room::asked`]).
pub async fn previews_in(
    c: &Call<'_>,
    sid: &str,
    nodes: &[&ValueNode],
    room: Room,
) -> Vec<Option<Preview>> {
    let mut budget = PER_RESULT;
    let futures = nodes.iter().map(|n| {
        let wanted = budget > 0 && shape_of(n).is_some() && n.has_children;
        if wanted {
            budget -= 1;
        }
        async move {
            if wanted {
                preview_at(c, sid, n, 2, room).await
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
    fn php_arrays_and_objects_are_recognised_and_scalars_are_not() {
        assert_eq!(shape("array(2)", Some("array")), Some(Shape::PhpArray));
        assert_eq!(shape("Cart", Some("Cart")), Some(Shape::Object("Cart")));
        assert_eq!(
            shape("App\\Models\\Order", Some("App\\Models\\Order")),
            Some(Shape::Object("Order"))
        );
        for (v, t) in [
            ("array(2)", Some("string")),
            ("\"array(2)\"", Some("string")),
            ("42", Some("int")),
            ("null", Some("null")),
            ("true", Some("bool")),
            ("int", Some("type")),
        ] {
            assert_eq!(shape(v, t), None, "{v} {t:?}");
        }
    }

    #[test]
    fn php_arrays_read_as_lists_or_by_key() {
        let f = |n: &str, v: &str| ValueNode {
            name: n.into(),
            value: v.into(),
            ..Default::default()
        };
        assert_eq!(
            php_array(&[f("0", "45"), f("1", "15")], More::No, 200, FIELD_CHARS),
            "[45, 15]"
        );
        assert_eq!(
            php_array(
                &[f("name", "\"Ada\""), f("3", "1")],
                More::Unknown,
                200,
                FIELD_CHARS
            ),
            "['name' => \"Ada\", 3 => 1, …]"
        );
        // A long list keeps whole items and counts the rest, so its size still shows.
        let items: Vec<ValueNode> = (0..30)
            .map(|i| f(&i.to_string(), &format!("\"assets/module-{i:02}.js\"")))
            .collect();
        let shown = php_array(&items[..8], More::Count(22), 200, FIELD_CHARS);
        assert!(
            shown.ends_with("\"assets/module-07.js\", … 22 more]"),
            "{shown}"
        );
        let shown = php_array(&items[..8], More::Count(22), 120, FIELD_CHARS);
        assert!(shown.chars().count() <= 120, "{shown}");
        let kept = shown.matches("assets/").count();
        assert!(
            shown.ends_with(&format!(".js\", … {} more]", 30 - kept)),
            "{shown}"
        );
        assert!(shown.starts_with("[\"assets/module-00.js\", "), "{shown}");
        assert_eq!(
            php_array(&items[..2], More::Count(28), 200, FIELD_CHARS),
            "[\"assets/module-00.js\", \"assets/module-01.js\", … 28 more]"
        );
        // Keys out of order are not a list.
        assert_eq!(
            php_array(&[f("1", "a"), f("0", "b")], More::No, 200, FIELD_CHARS),
            "[1 => a, 0 => b]"
        );
    }

    #[test]
    fn native_placeholders_are_recognised() {
        assert_eq!(shape("{…}", Some("struct point")), Some(Shape::Struct));
        assert_eq!(shape("{…}", Some("int [3]")), Some(Shape::Array));
        assert_eq!(
            shape("[2 items]", Some("unsigned short [2]")),
            Some(Shape::Array)
        );
        assert_eq!(
            shape("point @ 0x7fffffffe4b8", Some("point")),
            Some(Shape::Struct)
        );
        assert_eq!(
            shape("unsigned short[2] @ 0x555555558028", None),
            Some(Shape::Array)
        );
        assert_eq!(shape("((1, (...)),)", Some("tuple")), Some(Shape::Nested));
        assert_eq!(
            shape("{'a': {'b': {...}}}", Some("dict")),
            Some(Shape::Nested)
        );
        // A string that holds the same text is a string.
        assert_eq!(shape("'(...)'", Some("str")), None);
        for real in ["{x = 1}", "\"abc\"", "0x7fffffffe430", "size=0", "[1, 2]"] {
            assert_eq!(shape(real, None), None, "{real}");
        }
        let f = |n: &str, v: &str| ValueNode {
            name: n.into(),
            value: v.into(),
            ..Default::default()
        };
        assert_eq!(
            native(
                Shape::Struct,
                &[f("x", "1"), f("y", "2")],
                More::No,
                200,
                FIELD_CHARS
            ),
            "{x = 1, y = 2}"
        );
        assert_eq!(
            native(
                Shape::Array,
                &[f("0", "2"), f("1", "0")],
                More::Unknown,
                200,
                FIELD_CHARS
            ),
            "[2, 0, …]"
        );
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
            format("Item", &fields, false, 200, FIELD_CHARS),
            "Item(name='pen', price=1.5, qty=4)"
        );
        assert_eq!(
            format("Item", &fields, true, 200, FIELD_CHARS),
            "Item(name='pen', price=1.5, qty=4, …)"
        );
        let long = [field("text", &"x".repeat(100))];
        assert_eq!(
            format("Doc", &long, false, 200, FIELD_CHARS),
            format!("Doc(text={}…)", "x".repeat(40))
        );
        assert!(
            format("Item", &fields, false, 12, FIELD_CHARS)
                .chars()
                .count()
                <= 12
        );
    }
}
