//! The scripted program the fake "runs": its source files, values and trace of states.

use debugger_mcp_core::backend::*;

/// Source of the scripted program. Line numbers in the trace refer to these texts.
pub const MAIN_PY: &str = r#"import util

def main(limit):
    config = {"host": "localhost", "api_key": "sk-123"}
    user = util.User("ada", util.Address("London", "N1"))
    notes = "x" * 500
    numbers = list(range(50))
    total = 0
    items = [1, 2, 3]
    for i in items:
        total = util.add(total, i)
    print(total)
    return total

# entry point
main(3)
while True:
    util.serve()
"#;

pub const UTIL_PY: &str = r#"def add(a, b):
    result = a + b
    return result

def serve():
    pass
"#;

/// The program files, relative to each project root.
pub const FILES: [(&str, &str); 2] = [("main.py", MAIN_PY), ("util.py", UTIL_PY)];

/// A value in the fake program.
#[derive(Debug, Clone, PartialEq)]
pub enum FValue {
    None,
    Bool(bool),
    Int(i64),
    Str(String),
    List(Vec<FValue>),
    Dict(Vec<(String, FValue)>),
    Obj {
        class: String,
        fields: Vec<(String, FValue)>,
    },
}

impl FValue {
    pub(crate) fn type_name(&self) -> String {
        match self {
            FValue::None => "NoneType".into(),
            FValue::Bool(_) => "bool".into(),
            FValue::Int(_) => "int".into(),
            FValue::Str(_) => "str".into(),
            FValue::List(_) => "list".into(),
            FValue::Dict(_) => "dict".into(),
            FValue::Obj { class, .. } => class.clone(),
        }
    }

    pub(crate) fn render(&self) -> String {
        match self {
            FValue::None => "None".into(),
            FValue::Bool(b) => if *b { "True" } else { "False" }.into(),
            FValue::Int(i) => i.to_string(),
            FValue::Str(s) => format!("'{s}'"),
            FValue::List(items) => format!(
                "[{}]",
                items
                    .iter()
                    .map(|v| v.render())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            FValue::Dict(entries) => format!(
                "{{{}}}",
                entries
                    .iter()
                    .map(|(k, v)| format!("'{k}': {}", v.render()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            FValue::Obj { class, fields } => format!(
                "{class}({})",
                fields
                    .iter()
                    .map(|(k, v)| format!("{k}={}", v.render()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    /// Children as (display name, value). Dict keys are shown quoted, like debugpy does.
    pub(crate) fn children(&self) -> Vec<(String, FValue)> {
        match self {
            FValue::List(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| (i.to_string(), v.clone()))
                .collect(),
            FValue::Dict(entries) => entries
                .iter()
                .map(|(k, v)| (format!("'{k}'"), v.clone()))
                .collect(),
            FValue::Obj { fields, .. } => fields.clone(),
            _ => Vec::new(),
        }
    }

    pub(crate) fn child_len(&self) -> usize {
        match self {
            FValue::List(items) => items.len(),
            FValue::Dict(entries) => entries.len(),
            FValue::Obj { fields, .. } => fields.len(),
            _ => 0,
        }
    }

    pub(crate) fn child_mut(&mut self, index: usize) -> Option<&mut FValue> {
        match self {
            FValue::List(items) => items.get_mut(index),
            FValue::Dict(entries) => entries.get_mut(index).map(|(_, v)| v),
            FValue::Obj { fields, .. } => fields.get_mut(index).map(|(_, v)| v),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct FFrame {
    pub(crate) func: &'static str,
    pub(crate) file: &'static str,
    pub(crate) line: u32,
    pub(crate) vars: Vec<(String, FValue, ValueScope)>,
}

/// One state of the trace: the stack, top first.
#[derive(Debug, Clone)]
pub(crate) struct State {
    pub(crate) frames: Vec<FFrame>,
}

impl State {
    pub(crate) fn top(&self) -> &FFrame {
        &self.frames[0]
    }
}

pub(crate) struct Program {
    pub(crate) states: Vec<State>,
    /// Index where the endless `while True: util.serve()` loop starts.
    pub(crate) loop_start: usize,
}

pub(crate) fn module_frame(line: u32) -> FFrame {
    FFrame {
        func: "<module>",
        file: "main.py",
        line,
        vars: vec![(
            "__name__".into(),
            FValue::Str("__main__".into()),
            ValueScope::Global,
        )],
    }
}

pub(crate) fn build_program() -> Program {
    let mut states = Vec::new();
    states.push(State {
        frames: vec![module_frame(16)],
    });
    let mut vars: Vec<(String, FValue, ValueScope)> =
        vec![("limit".into(), FValue::Int(3), ValueScope::Argument)];
    let main_at = |line: u32, vars: &Vec<(String, FValue, ValueScope)>| State {
        frames: vec![
            FFrame {
                func: "main",
                file: "main.py",
                line,
                vars: vars.clone(),
            },
            module_frame(16),
        ],
    };
    let local = |name: &str, v: FValue| (name.to_string(), v, ValueScope::Local);
    let defs: Vec<(u32, (String, FValue, ValueScope))> = vec![
        (
            4,
            local(
                "config",
                FValue::Dict(vec![
                    ("host".into(), FValue::Str("localhost".into())),
                    ("api_key".into(), FValue::Str("sk-123".into())),
                ]),
            ),
        ),
        (
            5,
            local(
                "user",
                FValue::Obj {
                    class: "User".into(),
                    fields: vec![
                        ("name".into(), FValue::Str("ada".into())),
                        (
                            "address".into(),
                            FValue::Obj {
                                class: "Address".into(),
                                fields: vec![
                                    ("city".into(), FValue::Str("London".into())),
                                    ("zip".into(), FValue::Str("N1".into())),
                                ],
                            },
                        ),
                    ],
                },
            ),
        ),
        (6, local("notes", FValue::Str("x".repeat(500)))),
        (
            7,
            local("numbers", FValue::List((0..50).map(FValue::Int).collect())),
        ),
        (8, local("total", FValue::Int(0))),
        (
            9,
            local(
                "items",
                FValue::List(vec![FValue::Int(1), FValue::Int(2), FValue::Int(3)]),
            ),
        ),
    ];
    for (line, def) in defs {
        states.push(main_at(line, &vars));
        vars.push(def);
    }
    let set = |vars: &mut Vec<(String, FValue, ValueScope)>, name: &str, v: FValue| {
        if let Some(slot) = vars.iter_mut().find(|(n, _, _)| n == name) {
            slot.1 = v;
        } else {
            vars.push((name.into(), v, ValueScope::Local));
        }
    };
    let mut total = 0;
    for i in [1, 2, 3] {
        states.push(main_at(10, &vars));
        set(&mut vars, "i", FValue::Int(i));
        states.push(main_at(11, &vars));
        let caller = main_at(11, &vars).frames;
        let args = vec![
            ("a".to_string(), FValue::Int(total), ValueScope::Argument),
            ("b".into(), FValue::Int(i), ValueScope::Argument),
        ];
        let add = |line: u32, vars: Vec<(String, FValue, ValueScope)>| {
            let mut frames = vec![FFrame {
                func: "add",
                file: "util.py",
                line,
                vars,
            }];
            frames.extend(caller.clone());
            State { frames }
        };
        states.push(add(2, args.clone()));
        let mut with_result = args.clone();
        with_result.push(("result".into(), FValue::Int(total + i), ValueScope::Local));
        states.push(add(3, with_result));
        total += i;
        set(&mut vars, "total", FValue::Int(total));
    }
    states.push(main_at(12, &vars));
    states.push(main_at(13, &vars));
    let loop_start = states.len();
    states.push(State {
        frames: vec![module_frame(17)],
    });
    states.push(State {
        frames: vec![module_frame(18)],
    });
    states.push(State {
        frames: vec![
            FFrame {
                func: "serve",
                file: "util.py",
                line: 6,
                vars: Vec::new(),
            },
            module_frame(18),
        ],
    });
    Program { states, loop_start }
}

/// Lines a breakpoint can bind to: non-blank, non-comment lines.
pub(crate) fn is_code_line(text: &str, line: u32) -> bool {
    text.lines()
        .nth(line as usize - 1)
        .map(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .unwrap_or(false)
}
