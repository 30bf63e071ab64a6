//! Xdebug `<property>` elements → the core's [`ValueNode`]s, rendered so the core's value tree
//! (JSONPath, previews, real sizes, redaction) reads PHP values like any other backend's:
//! strings as JSON strings, `true`/`false`, `null`, numbers as written, arrays `array(N)`,
//! objects by class name. Children are fetched by handle: an index into the session's table of
//! `(stack depth, context, fullname)`, valid until the script resumes.

use crate::PAGE;
use crate::protocol::{self, Element, decoded_text};
use crate::session::Session;
use debugger_mcp_core::backend::*;

/// Xdebug's pseudo-variable for a function's result at a return breakpoint.
pub const RETURN_VALUE: &str = "$__RETURN_VALUE";

/// Xdebug's context of a variable path: 1 (Superglobals) for `$_GET[...]`, `$_SERVER`, ...,
/// which context 0 (Locals) does not find; 0 for everything else.
pub fn context_of(path: &str) -> u32 {
    const SUPER: [&str; 9] = [
        "$_GET",
        "$_POST",
        "$_SERVER",
        "$_COOKIE",
        "$_FILES",
        "$_ENV",
        "$_REQUEST",
        "$_SESSION",
        "$GLOBALS",
    ];
    let head = path.split(['[', '-', ':']).next().unwrap_or(path).trim();
    u32::from(SUPER.contains(&head))
}

/// Bytes of a string `evaluate` fetches at most: the core shows WHOLE_STRING_CHARS characters
/// of it, up to 4 bytes each in UTF-8 (Xdebug counts `max_data` and `size` in bytes).
const LONG_STRING: u64 = 4 * WHOLE_STRING_CHARS as u64;

/// Where a property lives, for `property_get`/`property_set`/`property_value`.
#[derive(Debug, Clone, PartialEq)]
pub struct PropRef {
    pub depth: u32,
    pub context: u32,
    pub fullname: String,
    /// An eval result's children as Xdebug sent them with it (`max_depth` 1: one level, the
    /// first page) and how many there are: no name finds them again, so they are served from
    /// here (`fullname` empty).
    pub inline: Option<(Vec<Prop>, Option<u64>)>,
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
    /// A string that is not UTF-8: `value` is its literal's body, the bytes that are not
    /// text written `\xNN` (PHP's own escape) and the rest escaped as JSON.
    pub binary: bool,
    /// Real size of a string in bytes.
    pub size: Option<u64>,
    pub children: Vec<Prop>,
}

fn sub(e: &Element, name: &str) -> Option<String> {
    e.child(name).map(decoded_text)
}

/// A string's text, or the body of its literal with `\xNN` for the bytes that are not UTF-8
/// (true) instead of `�`.
pub fn string_value(e: &Element) -> (String, bool) {
    let bytes = protocol::decoded_bytes(e);
    match String::from_utf8(bytes) {
        Ok(s) => (s, false),
        Err(e) => {
            let mut out = String::new();
            for chunk in e.as_bytes().utf8_chunks() {
                let json = serde_json::to_string(chunk.valid()).unwrap_or_default();
                out.push_str(&json[1..json.len() - 1]);
                for b in chunk.invalid() {
                    out.push_str(&format!("\\x{b:02x}"));
                }
            }
            (out, true)
        }
    }
}

pub fn parse_prop(e: &Element) -> Prop {
    let v = e.child("value").unwrap_or(e);
    let (value, binary) = if e.attr("type") == Some("string") {
        string_value(v)
    } else {
        (decoded_text(v), false)
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
        binary,
        size: e.attr("size").and_then(|n| n.parse().ok()),
        children: e.all("property").map(parse_prop).collect(),
    }
}

/// Whether an eval answer's elements hold arrays or objects whose contents Xdebug did not send.
fn unsent_levels(r: &crate::protocol::Response) -> bool {
    r.root.child("property").is_some_and(|p| {
        p.all("property")
            .any(|c| c.attr("children") == Some("1") && c.all("property").next().is_none())
    })
}

/// `r` with the deep answer's levels under its first elements (`deep` came with fewer
/// children a level, and strings at the user's length).
fn graft(
    mut r: crate::protocol::Response,
    deep: &crate::protocol::Response,
) -> crate::protocol::Response {
    let top = r.root.children.iter_mut().find(|c| c.name == "property");
    let (Some(top), Some(d)) = (top, deep.root.child("property")) else {
        return r;
    };
    let inner: Vec<_> = d.all("property").collect();
    let mine = top.children.iter_mut().filter(|c| c.name == "property");
    for (mine, theirs) in mine.zip(inner) {
        // The same element (name, type), whose levels Xdebug did not send the first time.
        let same = parse_prop(mine).name == parse_prop(theirs).name
            && mine.attr("type") == theirs.attr("type");
        if same && mine.all("property").next().is_none() {
            mine.children = theirs.children.clone();
        }
    }
    r
}

/// The text shown for a value.
pub fn render(p: &Prop) -> String {
    match p.type_name.as_str() {
        "string" if p.binary => format!("\"{}\"", p.value),
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
        inline: None,
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

impl Session {
    /// Xdebug's depth of the frame listed first: 1 at a return stop (see `control::frames`).
    pub fn top_depth(&self) -> u32 {
        u32::from(self.at_return.load(std::sync::atomic::Ordering::SeqCst))
    }

    /// The frame index the agent sees for Xdebug's `depth`.
    pub fn frame_index(&self, depth: u32) -> u32 {
        depth.saturating_sub(self.top_depth())
    }

    /// The locals (Xdebug's context 0) of the frame at Xdebug depth `depth`.
    async fn locals(&self, depth: u32) -> BackendResult<Vec<Prop>> {
        let r = self
            .req(
                "context_get",
                &[('d', depth.to_string()), ('c', "0".into())],
                None,
            )
            .await?;
        Ok(r.root.all("property").map(parse_prop).collect())
    }

    pub async fn frame_variables(&self, frame: &str) -> BackendResult<Vec<ValueNode>> {
        let depth = frame_depth(frame)?;
        let locals = self.locals(depth).await?;
        // At a return stop the returning frame's variables are gone (shown uninitialized).
        let returning = self.at_return.load(std::sync::atomic::Ordering::SeqCst);
        let at_return = depth == 0 && returning;
        // The caller, listed first at a return stop (see `frames`), shows what the call returned
        // beside its own locals.
        let returned = if returning && depth == 1 {
            self.locals(0)
                .await
                .ok()
                .and_then(|ps| ps.into_iter().find(|p| p.name == RETURN_VALUE))
        } else {
            None
        };
        let mut out: Vec<ValueNode> = returned
            .into_iter()
            .map(|p| (p, 0))
            .chain(locals.into_iter().map(|p| (p, depth)))
            .filter(|(p, _)| !(at_return && p.type_name == "uninitialized"))
            .map(|(p, depth)| {
                let mut n = to_node(&p, depth, 0, ValueScope::Local, &mut |r| self.handle(r));
                // At a return stop (a step out): what the function returned, under the name
                // every backend gives it (the recorder reads it as the call's result).
                if n.name == RETURN_VALUE {
                    n.name = "(return)".into();
                    n.set_handle = None;
                }
                n
            })
            .collect();
        // Xdebug's context 1: $_GET, $_POST, $_SERVER, ... (get_variables scope 'globals').
        if let Ok(g) = self
            .req(
                "context_get",
                &[('d', depth.to_string()), ('c', "1".into())],
                None,
            )
            .await
        {
            out.extend(
                g.root
                    .all("property")
                    .map(parse_prop)
                    .map(|p| to_node(&p, depth, 1, ValueScope::Global, &mut |r| self.handle(r))),
            );
        }
        Ok(out)
    }

    pub async fn children(
        &self,
        handle: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<ChildPage> {
        let r = self.prop_ref(handle)?;
        let mut out = Vec::new();
        let mut total = None;
        let end = offset.saturating_add(limit.max(1));
        if let Some((kids, count)) = &r.inline {
            // An eval result's children came with it, and theirs as deep as `max_depth` was
            // raised for the eval (no name reaches them later); deeper ones are shown by
            // their summary (`array(2)`, the class).
            let children = kids
                .iter()
                .skip(offset as usize)
                .take((end - offset) as usize)
                .map(|c| {
                    let mut node = to_node(c, r.depth, r.context, ValueScope::Local, &mut |x| {
                        self.handle(x)
                    });
                    if !c.children.is_empty() {
                        node.set_handle = None;
                        node.children_handle = Some(self.handle(PropRef {
                            depth: r.depth,
                            context: r.context,
                            fullname: String::new(),
                            inline: Some((c.children.clone(), c.numchildren)),
                        }));
                    }
                    node
                })
                .collect();
            return Ok(ChildPage {
                children,
                total: count.or(Some(kids.len() as u64)),
            });
        }
        let mut page = offset / PAGE;
        while page * PAGE < end {
            let resp = self
                .req(
                    "property_get",
                    &[
                        ('d', r.depth.to_string()),
                        ('c', r.context.to_string()),
                        ('p', page.to_string()),
                        ('n', r.fullname.clone()),
                    ],
                    None,
                )
                .await?;
            let Some(el) = resp.root.child("property") else {
                break;
            };
            let p = parse_prop(el);
            total = p.numchildren;
            let first = page * PAGE;
            let n = p.children.len() as u32;
            for (i, c) in p.children.iter().enumerate() {
                let idx = first + i as u32;
                if idx >= offset && idx < end {
                    out.push(to_node(
                        c,
                        r.depth,
                        r.context,
                        ValueScope::Local,
                        &mut |x| self.handle(x),
                    ));
                }
            }
            if n < PAGE {
                break;
            }
            page += 1;
        }
        Ok(ChildPage {
            children: out,
            total,
        })
    }

    pub async fn set_value(&self, handle: &str, new_value: &str) -> BackendResult<ValueNode> {
        let r = self.prop_ref(handle)?;
        let ctx = [
            ('d', r.depth.to_string()),
            ('c', r.context.to_string()),
            ('n', r.fullname.clone()),
        ];
        let set = self.req("property_set", &ctx, Some(new_value)).await?;
        if set.attr("success") != Some("1") {
            return Err(BackendError::Failed(format!(
                "Xdebug did not set {} to `{new_value}` (is it a valid PHP expression?)",
                r.fullname
            )));
        }
        let got = self.req("property_get", &ctx, None).await?;
        let el = got.root.child("property").ok_or_else(|| {
            BackendError::Failed("Xdebug returned no property after setting it".into())
        })?;
        Ok(to_node(
            &parse_prop(el),
            r.depth,
            r.context,
            ValueScope::Local,
            &mut |x| self.handle(x),
        ))
    }

    pub async fn evaluate(&self, request: EvalRequest) -> BackendResult<ValueNode> {
        if let Some(f) = &request.format {
            return Err(BackendError::Failed(format_refusal(f, &request.expression)));
        }
        let depth = frame_depth(&request.frame)?;
        let expr = request.expression.trim();
        let context = context_of(expr);
        let (el, fullname) = if is_property_path(expr) {
            // Reads a variable in any frame, with a handle for its children.
            let r = self
                .req(
                    "property_get",
                    &[
                        ('d', depth.to_string()),
                        ('c', context.to_string()),
                        ('n', expr.to_string()),
                    ],
                    None,
                )
                .await;
            match r {
                Ok(r) => (r.root.child("property").cloned(), Some(expr.to_string())),
                Err(BackendError::Failed(m)) if m.contains("error 300") => {
                    return Err(BackendError::Failed(format!(
                        "{expr} is not defined in frame {}",
                        self.frame_index(depth)
                    )));
                }
                Err(e) => return Err(e),
            }
        } else {
            // At a return stop the top frame listed is the caller (Xdebug's depth 1), and
            // Xdebug's eval already runs in it: the returned function's scope is gone.
            if depth != self.top_depth() {
                return Err(BackendError::Unsupported(format!(
                    "Xdebug evaluates expressions in the top frame only; in frame {} read variables by name (e.g. $order['total'])",
                    self.frame_index(depth)
                )));
            }
            // An eval result has no name to fetch it whole by later: Xdebug's `max_data` is
            // raised for this call only (eval takes no `-m`), then the user's again.
            let r = self.eval_whole(expr, LONG_STRING).await;
            let r = match r {
                // Elements holding arrays or objects Xdebug did not send: asked again, deeper
                // (read-only expressions only: it runs twice).
                Ok(r) if !request.allow_side_effects && unsent_levels(&r) => {
                    match self.eval_deep(expr).await {
                        Ok(deep) => graft(r, &deep),
                        Err(_) => r,
                    }
                }
                Ok(r) => r,
                Err(BackendError::Failed(m)) if m.contains("error 206") => {
                    // Xdebug says only "error evaluating code": name a variable the frame
                    // lacks, the usual cause (`$this` in a function, a local of another point).
                    let missing = self.undefined_in(depth, expr).await;
                    return Err(BackendError::Failed(if missing.is_empty() {
                        format!("PHP could not evaluate `{expr}` (error in the expression)")
                    } else {
                        format!(
                            "PHP could not evaluate `{expr}`: {} not defined in frame {}{}",
                            missing.join(", "),
                            self.frame_index(depth),
                            if missing.iter().any(|n| n == "$this") {
                                " ($this exists only in a method)"
                            } else {
                                ""
                            }
                        )
                    }));
                }
                Err(e) => return Err(e),
            };
            (r.root.child("property").cloned(), None)
        };
        let el = el.ok_or_else(|| {
            BackendError::Failed(format!("Xdebug returned no value for `{expr}`"))
        })?;
        let mut p = parse_prop(&el);
        if p.name.is_empty() {
            p.name = expr.to_string();
        }
        if let Some(f) = fullname.clone() {
            p.fullname = Some(f);
        }
        // A long string the agent asked for by name: fetch it whole (bounded).
        if p.type_name == "string"
            && let (Some(size), Some(f)) = (p.size, &fullname)
            && size > p.value.len() as u64
        {
            let m = size.min(LONG_STRING);
            if let Ok(v) = self
                .req(
                    "property_value",
                    &[
                        ('d', depth.to_string()),
                        ('c', context.to_string()),
                        ('m', m.to_string()),
                        ('n', f.clone()),
                    ],
                    None,
                )
                .await
            {
                // With extended_properties, a value holding control characters comes in a
                // `<value>` child (as in property_get), else as the response's own text.
                (p.value, p.binary) = string_value(v.root.child("value").unwrap_or(&v.root));
            }
        }
        let scope = if context == 1 {
            ValueScope::Global
        } else {
            ValueScope::Local
        };
        let mut node = to_node(&p, depth, context, scope, &mut |x| self.handle(x));
        if fullname.is_none() {
            // Eval results have no name Xdebug can find again: their children are the ones
            // that came with the result (one level, its first page), so the core can show
            // `['rel' => "", …]` rather than `array(6)`; nothing further can be paged or set.
            node.set_handle = None;
            node.children_handle = (node.has_children && !p.children.is_empty()).then(|| {
                self.handle(PropRef {
                    depth,
                    context,
                    fullname: String::new(),
                    inline: Some((p.children.clone(), p.numchildren)),
                })
            });
        }
        Ok(node)
    }

    /// The `$variables` `expr` names that the frame at Xdebug depth `depth` does not hold (one
    /// declared but not yet assigned counts as missing; superglobals never do).
    async fn undefined_in(&self, depth: u32, expr: &str) -> Vec<String> {
        let names = php_variables(expr);
        if names.is_empty() {
            return names;
        }
        let Ok(locals) = self.locals(depth).await else {
            return Vec::new();
        };
        let defined: Vec<String> = locals
            .into_iter()
            .filter(|p| p.type_name != "uninitialized")
            .map(|p| p.name)
            .collect();
        names
            .into_iter()
            .filter(|n| !defined.contains(n) && context_of(n) == 0)
            .collect()
    }
}

/// The distinct `$name`s of a PHP expression, in order (`$$x` and `${…}` name none).
fn php_variables(expr: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = expr;
    while let Some(at) = rest.find('$') {
        let after = &rest[at + 1..];
        let len: usize = after
            .char_indices()
            .take_while(|&(i, c)| {
                c == '_'
                    || !c.is_ascii()
                    || c.is_ascii_alphabetic()
                    || (i > 0 && c.is_ascii_digit())
            })
            .map(|(_, c)| c.len_utf8())
            .sum();
        if len > 0 {
            let name = format!("${}", &after[..len]);
            if !out.contains(&name) {
                out.push(name);
            }
        }
        rest = &after[len..];
    }
    out
}

fn frame_depth(frame: &str) -> BackendResult<u32> {
    frame
        .parse()
        .map_err(|_| BackendError::NotFound(format!("frame '{frame}'")))
}

/// A variable path Xdebug can read directly in any frame (`$a`, `$a['k']->b[0]`), as opposed to
/// an expression it must evaluate.
fn is_property_path(e: &str) -> bool {
    let e = e.trim();
    // A key is a literal: `$a[$i]` is no name Xdebug can look up (property_get answered the
    // whole array for it), so it is evaluated.
    let mut depth = 0u32;
    let variable_key = e.chars().any(|c| {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        c == '$' && depth > 0
    });
    e.starts_with('$')
        && e.len() > 1
        && !variable_key
        && e.chars()
            .all(|c| c.is_alphanumeric() || "$_[]'\"->:".contains(c))
        && !e.contains("()")
}

/// A gdb print format (`/x $mask`) asked of PHP, which has none: the PHP function that shows
/// the same, or for gdb's memory examine (`x/16xb`), the bytes of a string.
fn format_refusal(f: &PrintFormat, e: &str) -> String {
    if f.examine {
        return format!(
            "'x/{}' examines raw memory, a gdb/lldb command; PHP has none: evaluate bin2hex(substr({e}, 0, 16))",
            f.letters
        );
    }
    let write = match f.letters.chars().next().unwrap_or('x') {
        'x' | 'z' | 'a' => format!("dechex({e})"),
        't' => format!("decbin({e})"),
        'o' => format!("decoct({e})"),
        'c' => format!("chr({e})"),
        'd' | 'u' => format!("intval({e})"),
        'f' => format!("floatval({e})"),
        _ => format!("var_export({e}, true)"),
    };
    format!(
        "'/{}' is a gdb print format; PHP (Xdebug) evaluates PHP expressions only: write {write}",
        f.letters
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Packet, parse_packet};

    #[test]
    fn the_variables_an_expression_names_are_found_once_each() {
        assert_eq!(
            php_variables("$this->cfg['x'] + count($items) + $items[0] + $_GET['a'] + $é"),
            ["$this", "$items", "$_GET", "$é"]
        );
        // `$$x` reads the variable named by $x; `${…}` and a lone `$` name nothing.
        assert_eq!(php_variables("$$x . ${'y'} . '$' . $a1"), ["$x", "$a1"]);
        assert!(php_variables("strlen('abc') + 1").is_empty());
    }

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
