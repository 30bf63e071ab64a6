//! Xdebug `<property>` elements → the core's [`ValueNode`]s, rendered so the core's value tree
//! (JSONPath, previews, real sizes, redaction) reads PHP values like any other backend's:
//! strings as JSON strings, `true`/`false`, `null`, numbers as written, arrays `array(N)`,
//! objects by class name. Children are fetched by handle: an index into the session's table of
//! `(stack depth, context, fullname)`, valid until the script resumes.

use crate::protocol::{Element, decoded_text};
use debugger_mcp_core::backend::{ValueNode, ValueScope};

/// Where a property lives, for `property_get`/`property_set`/`property_value`.
#[derive(Debug, Clone, PartialEq)]
pub struct PropRef {
    pub depth: u32,
    pub context: u32,
    pub fullname: String,
}

/// A property's fields, whichever encoding Xdebug chose (extended_properties moves name,
/// fullname, classname and value into base64 child elements).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Prop {
    pub name: String,
    pub fullname: Option<String>,
    pub type_name: String,
    pub classname: Option<String>,
    pub facet: Option<String>,
    pub has_children: bool,
    pub numchildren: Option<u64>,
    /// Decoded value (strings may be cut at max_data).
    pub value: String,
    /// Real size of a string in bytes.
    pub size: Option<u64>,
    pub children: Vec<Prop>,
}

fn sub(e: &Element, name: &str) -> Option<String> {
    e.child(name).map(decoded_text)
}

pub fn parse_prop(e: &Element) -> Prop {
    let value = match e.child("value") {
        Some(v) => decoded_text(v),
        None => decoded_text(e),
    };
    Prop {
        name: sub(e, "name")
            .or_else(|| e.attr("name").map(str::to_string))
            .unwrap_or_default(),
        fullname: sub(e, "fullname").or_else(|| e.attr("fullname").map(str::to_string)),
        type_name: e.attr("type").unwrap_or("").to_string(),
        classname: sub(e, "classname").or_else(|| e.attr("classname").map(str::to_string)),
        facet: e.attr("facet").map(str::to_string),
        has_children: e.attr("children") == Some("1"),
        numchildren: e.attr("numchildren").and_then(|n| n.parse().ok()),
        value,
        size: e.attr("size").and_then(|n| n.parse().ok()),
        children: e.all("property").map(parse_prop).collect(),
    }
}

/// The text shown for a value.
pub fn render(p: &Prop) -> String {
    match p.type_name.as_str() {
        "string" => serde_json::to_string(&p.value).unwrap_or_default(),
        "bool" => if p.value == "1" || p.value == "true" {
            "true"
        } else {
            "false"
        }
        .into(),
        "null" => "null".into(),
        "int" | "float" => p.value.clone(),
        "array" => format!("array({})", p.numchildren.unwrap_or(0)),
        "object" => p.classname.clone().unwrap_or_else(|| "object".into()),
        "uninitialized" => "uninitialized".into(),
        "resource" => format!("resource({})", p.value),
        _ if p.value.is_empty() => p.type_name.clone(),
        _ => p.value.clone(),
    }
}

/// `handle` registers a [`PropRef`] and returns its handle.
pub fn to_node(
    p: &Prop,
    depth: u32,
    context: u32,
    scope: ValueScope,
    handle: &mut dyn FnMut(PropRef) -> String,
) -> ValueNode {
    let value = render(p);
    let value_length = match (p.type_name.as_str(), p.size) {
        // Xdebug cut the string at max_data: say how long it really is.
        ("string", Some(size)) if size > p.value.len() as u64 => Some(size),
        _ => None,
    };
    let fullname = p.fullname.clone();
    let r = fullname.as_ref().map(|f| PropRef {
        depth,
        context,
        fullname: f.clone(),
    });
    let has_children = p.has_children && p.numchildren != Some(0);
    let id = r.map(&mut *handle);
    let type_name = match (p.type_name.as_str(), &p.classname) {
        ("object", Some(c)) => Some(c.clone()),
        _ => Some(p.type_name.clone()).filter(|t| !t.is_empty()),
    };
    let scope = if p.name == "$this" {
        ValueScope::This
    } else {
        scope
    };
    ValueNode {
        name: p.name.clone(),
        value,
        type_name,
        has_children,
        children_handle: id.clone().filter(|_| has_children),
        set_handle: id,
        evaluate_name: fullname,
        child_count: if matches!(p.type_name.as_str(), "array" | "object") {
            p.numchildren
        } else {
            None
        },
        value_length,
        scope,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Packet, parse_packet};

    #[test]
    fn php_values_render_as_the_core_reads_them() {
        let xml = r#"<response command="context_get" transaction_id="4"><property name="$o" fullname="$o" type="object" classname="Order" children="1" numchildren="2" page="0" pagesize="100"><property name="items" fullname="$o-&gt;items" facet="public" type="array" children="1" numchildren="5000"></property><property name="note" fullname="$o-&gt;note" facet="private" type="string" size="9000" encoding="base64"><![CDATA[YWJj]]></property></property><property name="$b" fullname="$b" type="bool"><![CDATA[1]]></property><property type="string" children="0" size="2"><name encoding="base64"><![CDATA[JHg=]]></name><fullname encoding="base64"><![CDATA[JHg=]]></fullname><value encoding="base64"><![CDATA[aGk=]]></value></property></response>"#;
        let Packet::Response(r) = parse_packet(xml).unwrap() else {
            panic!()
        };
        let props: Vec<Prop> = r.root.all("property").map(parse_prop).collect();
        let mut table = Vec::new();
        let mut h = |p: PropRef| {
            table.push(p);
            (table.len() - 1).to_string()
        };
        let o = to_node(&props[0], 0, 0, ValueScope::Local, &mut h);
        assert_eq!(
            (
                o.value.as_str(),
                o.type_name.as_deref(),
                o.child_count,
                o.has_children
            ),
            ("Order", Some("Order"), Some(2), true)
        );
        let items = to_node(&props[0].children[0], 0, 0, ValueScope::Local, &mut h);
        assert_eq!(
            (
                items.name.as_str(),
                items.value.as_str(),
                items.evaluate_name.as_deref()
            ),
            ("items", "array(5000)", Some("$o->items"))
        );
        let note = to_node(&props[0].children[1], 0, 0, ValueScope::Local, &mut h);
        assert_eq!(
            (note.value.as_str(), note.value_length),
            ("\"abc\"", Some(9000))
        );
        assert_eq!(
            to_node(&props[1], 0, 0, ValueScope::Local, &mut h).value,
            "true"
        );
        let x = to_node(&props[2], 0, 0, ValueScope::Local, &mut h);
        assert_eq!((x.name.as_str(), x.value.as_str()), ("$x", "\"hi\""));
        assert_eq!(table[1].fullname, "$o->items");
    }
}
