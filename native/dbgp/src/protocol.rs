//! DBGp wire format (<https://xdebug.org/docs/dbgp>): framing, typed packets, command encoding.
//!
//! Engine → IDE: `LENGTH NUL XML NUL`, LENGTH the decimal byte count of XML. IDE → engine:
//! `command -i TXID -a "value" … [-- BASE64]` NUL. Nothing here does I/O; `transport` feeds
//! bytes in and writes what `encode_command` returns.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use std::collections::BTreeMap;

/// A packet larger than this is refused (a corrupt length would otherwise make us buffer
/// gigabytes). Xdebug's largest packets are `max_data`-bounded property dumps.
pub const MAX_PACKET: usize = 64 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq)]
pub struct ProtocolError(pub String);

impl std::fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "malformed DBGp packet: {}", self.0)
    }
}

/// Incremental framing: push bytes as they arrive, pop complete XML payloads.
#[derive(Default)]
pub struct Decoder {
    buf: Vec<u8>,
}

impl Decoder {
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next complete payload, `Ok(None)` when more bytes are needed. An error means the
    /// stream cannot be resynchronised: the connection must be dropped.
    pub fn next_payload(&mut self) -> Result<Option<String>, ProtocolError> {
        let Some(nul) = self.buf.iter().position(|&b| b == 0) else {
            if self.buf.len() > 20 {
                return Err(ProtocolError(format!(
                    "no length prefix in the first {} bytes",
                    self.buf.len()
                )));
            }
            if let Some(b) = self.buf.iter().find(|b| !b.is_ascii_digit()) {
                return Err(ProtocolError(format!(
                    "length prefix has a non-digit byte 0x{b:02x}"
                )));
            }
            return Ok(None);
        };
        let digits = &self.buf[..nul];
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) || digits.len() > 12 {
            return Err(ProtocolError(format!(
                "bad length prefix {:?}",
                String::from_utf8_lossy(digits)
            )));
        }
        let len: usize = std::str::from_utf8(digits)
            .unwrap()
            .parse()
            .map_err(|_| ProtocolError("length overflows".into()))?;
        if len > MAX_PACKET {
            return Err(ProtocolError(format!(
                "length {len} exceeds the {MAX_PACKET}-byte limit"
            )));
        }
        let total = nul + 1 + len + 1;
        if self.buf.len() < total {
            return Ok(None);
        }
        if self.buf[total - 1] != 0 {
            return Err(ProtocolError(format!(
                "payload of {len} bytes is not NUL-terminated"
            )));
        }
        let xml = String::from_utf8_lossy(&self.buf[nul + 1..total - 1]).into_owned();
        self.buf.drain(..total);
        Ok(Some(xml))
    }
}

/// An owned XML element (namespace prefixes dropped: `xdebug:message` is `message`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Element {
    pub name: String,
    pub attrs: BTreeMap<String, String>,
    pub children: Vec<Element>,
    pub text: String,
}

impl Element {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.get(name).map(String::as_str)
    }
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }
    fn from_node(n: roxmltree::Node) -> Element {
        let mut e = Element {
            name: n.tag_name().name().to_string(),
            ..Default::default()
        };
        for a in n.attributes() {
            e.attrs.insert(a.name().to_string(), a.value().to_string());
        }
        for c in n.children() {
            if c.is_element() {
                e.children.push(Element::from_node(c));
            } else if c.is_text() {
                e.text.push_str(c.text().unwrap_or(""));
            }
        }
        e
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Init {
    pub fileuri: String,
    pub language: String,
    pub appid: Option<u32>,
    pub idekey: String,
    pub engine: String,
}

/// `<error code="N"><message>…</message></error>` of a response.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineError {
    pub code: u32,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    pub command: String,
    pub transaction_id: u32,
    pub root: Element,
    pub error: Option<EngineError>,
}

impl Response {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.root.attr(name)
    }
    /// `starting`, `break`, `stopping`, `stopped`, `running` (continuation commands, `status`).
    pub fn status(&self) -> Option<&str> {
        self.attr("status")
    }
    /// The `xdebug:message` of a break: where, and the exception when one caused it.
    pub fn break_message(&self) -> Option<BreakMessage> {
        let m = self.root.child("message")?;
        Some(BreakMessage {
            fileuri: m.attr("filename").unwrap_or("").to_string(),
            line: m.attr("lineno").and_then(|l| l.parse().ok()),
            exception: m.attr("exception").map(str::to_string),
            code: m.attr("code").map(str::to_string),
            text: m.text.trim().to_string(),
        })
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct BreakMessage {
    pub fileuri: String,
    pub line: Option<u32>,
    pub exception: Option<String>,
    pub code: Option<String>,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamKind {
    Stdout,
    Stderr,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Packet {
    Init(Init),
    Response(Response),
    Stream {
        kind: StreamKind,
        text: String,
    },
    /// `breakpoint_resolved`, `error`, `user`, …: the name and the element.
    Notify {
        name: String,
        root: Element,
    },
}

/// Decodes an element's text per its `encoding` attribute (`base64` or none).
pub fn decoded_text(e: &Element) -> String {
    match e.attr("encoding") {
        Some("base64") => base64_text(&e.text),
        _ => e.text.clone(),
    }
}

/// An element's bytes per its `encoding` attribute: a PHP string is bytes, not text.
pub fn decoded_bytes(e: &Element) -> Vec<u8> {
    match e.attr("encoding") {
        Some("base64") => {
            let clean: String = e.text.chars().filter(|c| !c.is_whitespace()).collect();
            B64.decode(clean.as_bytes())
                .unwrap_or_else(|_| e.text.clone().into_bytes())
        }
        _ => e.text.clone().into_bytes(),
    }
}

pub fn base64_text(s: &str) -> String {
    let clean: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    match B64.decode(clean.as_bytes()) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(_) => s.to_string(),
    }
}

pub fn parse_packet(xml: &str) -> Result<Packet, ProtocolError> {
    let doc =
        roxmltree::Document::parse(xml).map_err(|e| ProtocolError(format!("invalid XML: {e}")))?;
    let root = Element::from_node(doc.root_element());
    match root.name.as_str() {
        "init" => Ok(Packet::Init(Init {
            fileuri: root.attr("fileuri").unwrap_or("").to_string(),
            language: root.attr("language").unwrap_or("").to_string(),
            appid: root.attr("appid").and_then(|a| a.parse().ok()),
            idekey: root.attr("idekey").unwrap_or("").to_string(),
            engine: root
                .child("engine")
                .map(|e| {
                    format!("{} {}", e.text.trim(), e.attr("version").unwrap_or(""))
                        .trim()
                        .to_string()
                })
                .unwrap_or_default(),
        })),
        "response" => {
            let transaction_id = root
                .attr("transaction_id")
                .ok_or_else(|| ProtocolError("response without transaction_id".into()))?
                .parse()
                .map_err(|_| {
                    ProtocolError(format!(
                        "non-numeric transaction_id {:?}",
                        root.attr("transaction_id")
                    ))
                })?;
            let error = root.child("error").map(|e| EngineError {
                code: e.attr("code").and_then(|c| c.parse().ok()).unwrap_or(0),
                message: e
                    .child("message")
                    .map(|m| m.text.trim().to_string())
                    .unwrap_or_default(),
            });
            Ok(Packet::Response(Response {
                command: root.attr("command").unwrap_or("").to_string(),
                transaction_id,
                error,
                root,
            }))
        }
        "stream" => {
            let kind = match root.attr("type") {
                Some("stdout") => StreamKind::Stdout,
                Some("stderr") => StreamKind::Stderr,
                other => return Err(ProtocolError(format!("stream of unknown type {other:?}"))),
            };
            Ok(Packet::Stream {
                kind,
                text: decoded_text(&root),
            })
        }
        "notify" => Ok(Packet::Notify {
            name: root.attr("name").unwrap_or("").to_string(),
            root,
        }),
        other => Err(ProtocolError(format!("unknown packet <{other}>"))),
    }
}

/// One command line: `name -i txid -k "v" … [-- base64(data)]` NUL-terminated. Values are
/// always double-quoted with `\` and `"` escaped, as Xdebug's argument parser expects. NUL
/// cannot be sent at all.
pub fn encode_command(
    name: &str,
    txid: u32,
    args: &[(char, String)],
    data: Option<&str>,
) -> Result<Vec<u8>, String> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("invalid DBGp command name {name:?}"));
    }
    let mut s = format!("{name} -i {txid}");
    for (flag, value) in args {
        if value.contains('\0') {
            return Err(format!("argument -{flag} contains a NUL byte"));
        }
        s.push_str(&format!(" -{flag} \""));
        for c in value.chars() {
            if c == '"' || c == '\\' {
                s.push('\\');
            }
            s.push(c);
        }
        s.push('"');
    }
    if let Some(d) = data {
        s.push_str(" -- ");
        s.push_str(&B64.encode(d.as_bytes()));
    }
    let mut out = s.into_bytes();
    out.push(0);
    Ok(out)
}

/// `file:///a%20b/c.php` → `/a b/c.php`; other schemes (`dbgp://`, eval code) → None.
pub fn uri_to_path(uri: &str) -> Option<String> {
    let rest = uri.strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(v) = u8::from_str_radix(
                std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("zz"),
                16,
            )
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    Some(String::from_utf8_lossy(&out).into_owned())
}

/// `/a b/c.php` → `file:///a%20b/c.php` (what Xdebug compares breakpoint files against).
pub fn path_to_uri(path: &str) -> String {
    let mut s = String::from("file://");
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(xml: &str) -> Vec<u8> {
        let mut v = format!("{}\0{xml}", xml.len()).into_bytes();
        v.push(0);
        v
    }

    #[test]
    fn decodes_split_and_joined_packets() {
        let a = r#"<?xml version="1.0" encoding="iso-8859-1"?><init xmlns="urn:debugger_protocol_v1" fileuri="file:///t/a%20b.php" language="PHP" appid="42" idekey="x"><engine version="3.2.0"><![CDATA[Xdebug]]></engine></init>"#;
        let b = r#"<response xmlns="urn:debugger_protocol_v1" xmlns:xdebug="https://xdebug.org/dbgp/xdebug" command="run" transaction_id="3" status="break" reason="ok"><xdebug:message filename="file:///t/x.php" lineno="7" exception="RuntimeException" code="0"><![CDATA[boom]]></xdebug:message></response>"#;
        let mut bytes = frame(a);
        bytes.extend(frame(b));
        let mut d = Decoder::default();
        for chunk in bytes.chunks(7) {
            d.push(chunk);
        }
        let p1 = parse_packet(&d.next_payload().unwrap().unwrap()).unwrap();
        let Packet::Init(init) = p1 else { panic!() };
        assert_eq!(init.appid, Some(42));
        assert_eq!(uri_to_path(&init.fileuri).unwrap(), "/t/a b.php");
        assert_eq!(init.engine, "Xdebug 3.2.0");
        let Packet::Response(r) = parse_packet(&d.next_payload().unwrap().unwrap()).unwrap() else {
            panic!()
        };
        let m = r.break_message().unwrap();
        assert_eq!(
            (
                r.transaction_id,
                m.line,
                m.exception.as_deref(),
                m.text.as_str()
            ),
            (3, Some(7), Some("RuntimeException"), "boom")
        );
        assert_eq!(d.next_payload().unwrap(), None);
    }

    #[test]
    fn commands_quote_and_encode() {
        let c = encode_command(
            "property_get",
            5,
            &[('n', r#"$a["x\y"]"#.into())],
            Some("1+1"),
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(c).unwrap(),
            "property_get -i 5 -n \"$a[\\\"x\\\\y\\\"]\" -- MSsx\0"
        );
        assert!(encode_command("eval; rm", 1, &[], None).is_err());
        assert!(encode_command("eval", 1, &[('n', "a\0b".into())], None).is_err());
        assert_eq!(path_to_uri("/a b/ü.php"), "file:///a%20b/%C3%BC.php");
        assert_eq!(
            uri_to_path(&path_to_uri("/a b/ü.php")).unwrap(),
            "/a b/ü.php"
        );
        assert_eq!(uri_to_path("dbgp://1"), None);
    }

    /// Malformed input of every kind ends in an error or a wait for more bytes, never a panic
    /// or an unbounded buffer: random bytes, truncations and byte flips of real packets.
    #[test]
    fn fuzzed_packets_never_panic() {
        let real = [
            r#"<init xmlns="urn:debugger_protocol_v1" fileuri="file:///x.php" appid="1"><engine version="3.2.0">Xdebug</engine></init>"#,
            r#"<response command="property_get" transaction_id="9"><property name="$s" fullname="$s" type="string" size="3" encoding="base64"><![CDATA[YWJj]]></property></response>"#,
            r#"<stream type="stdout" encoding="base64">aGk=</stream>"#,
            r#"<notify name="breakpoint_resolved"><breakpoint id="1" resolved="resolved" lineno="3"/></notify>"#,
        ];
        // xorshift: deterministic, no extra crate for a test.
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut errors, mut packets) = (0, 0);
        for i in 0..20_000 {
            let mut bytes = frame(real[i % real.len()]);
            match rnd() % 5 {
                0 => {
                    let n = (rnd() % 64) as usize;
                    bytes = (0..n).map(|_| rnd() as u8).collect();
                }
                1 => bytes.truncate((rnd() as usize) % bytes.len()),
                2 => {
                    for _ in 0..(1 + rnd() % 4) {
                        let k = (rnd() as usize) % bytes.len();
                        bytes[k] = rnd() as u8;
                    }
                }
                3 => {
                    let k = (rnd() as usize) % bytes.len();
                    bytes.insert(k, rnd() as u8);
                }
                _ => {}
            }
            let mut d = Decoder::default();
            d.push(&bytes);
            loop {
                match d.next_payload() {
                    Ok(Some(xml)) => match parse_packet(&xml) {
                        Ok(_) => packets += 1,
                        Err(_) => errors += 1,
                    },
                    Ok(None) => break,
                    Err(e) => {
                        assert!(e.to_string().starts_with("malformed DBGp packet"));
                        errors += 1;
                        break;
                    }
                }
            }
            assert!(d.buf.len() <= bytes.len());
        }
        assert!(
            errors > 1000 && packets > 1000,
            "errors {errors}, packets {packets}"
        );
        // A length beyond the limit is refused before buffering it.
        let mut d = Decoder::default();
        d.push(b"999999999999\0<");
        assert!(d.next_payload().unwrap_err().0.contains("limit"));
        let mut d = Decoder::default();
        d.push(b"12x\0");
        assert!(d.next_payload().is_err());
    }
}
