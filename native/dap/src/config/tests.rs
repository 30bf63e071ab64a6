//! Resolving run configurations and command lines.

use super::command::from_words;
use super::vars::substitute;
use super::*;

#[test]
fn splits_quotes() {
    assert_eq!(
        split_command(r#"python3 "a b.py" 'x y' z\ w"#).unwrap(),
        vec!["python3", "a b.py", "x y", "z w"]
    );
}

#[test]
fn reads_a_command_as_a_shell_runs_it() {
    let c =
        parse_command("A=1 B='x y' ./prog 'a <b' in2>err.txt < in.txt > \"o ut\" 2>&1").unwrap();
    assert_eq!(
        c.env,
        vec![("A".into(), "1".into()), ("B".into(), "x y".into())]
    );
    // `in2>` is a word then `>`: only a bare number names a stream.
    assert_eq!(c.words, vec!["./prog", "a <b", "in2"]);
    let shell: Vec<String> = c.redirects.iter().map(Redirect::shell).collect();
    assert_eq!(shell, vec![">err.txt", "<in.txt", ">'o ut'", "2>&1"]);
    assert_eq!(c.input, None);
    let p = parse_command("python3 gen.py 3 | ./prog -v").unwrap();
    assert_eq!(p.input.as_deref(), Some("python3 gen.py 3"));
    assert_eq!(p.words, vec!["./prog", "-v"]);
    let both = parse_command("./prog &>> log").unwrap();
    let shell: Vec<String> = both.redirects.iter().map(Redirect::shell).collect();
    assert_eq!(shell, vec![">>log", "2>&1"]);
    // A quoted operator is a word.
    assert_eq!(
        parse_command("./prog '|' \\>").unwrap().words,
        vec!["./prog", "|", ">"]
    );
}

#[test]
fn refuses_what_a_launch_cannot_honour_naming_it() {
    for (cmd, named) in [
        ("make && ./prog", "'&&'"),
        ("./prog; echo done", "';'"),
        ("./prog &", "'&'"),
        ("./prog | head -3", "'| head'"),
        ("./prog $HOME", "'$HOME'"),
        ("./prog \"$(cat f)\"", "'$('"),
        ("./prog `cat f`", "'`'"),
        ("./prog <<< text", "'<<<'"),
        ("./prog 3> x", "'3>'"),
        ("./prog <", "'<'"),
        ("cat a | ./prog < b", "'<'"),
        ("./prog >&log", "'>&log'"),
    ] {
        let e = parse_command(cmd).unwrap_err().to_string();
        assert!(e.contains(named), "{cmd}: {e}");
    }
    // An argument list holds words only.
    let e = split_command("-v < in").unwrap_err().to_string();
    assert!(e.contains("'<in'"), "{e}");
}

#[test]
fn redirections_reach_the_launch_or_are_refused_by_the_adapter() {
    let root = scratch("redirect");
    write(&root, "in.txt", "3\n");
    write(&root, "app.py", "print(input())\n");
    let go = |cmd: &str, adapter: Option<&str>| {
        resolve(
            &root,
            &LaunchRequest {
                command: Some(cmd.into()),
                adapter: adapter.map(str::to_string),
                ..Default::default()
            },
        )
    };
    let py = go("MODE=t python3 app.py x < in.txt 2>&1", None).unwrap();
    assert_eq!(py.arguments["env"]["MODE"], "t");
    let sh = py.arguments["python"].as_array().unwrap();
    assert_eq!(sh[0], "/bin/sh");
    let script = sh[2].as_str().unwrap();
    assert!(
        script.starts_with("exec \"$0\" \"$@\" <")
            && script.contains("in.txt")
            && script.ends_with(" 2>&1"),
        "{script}"
    );
    assert_eq!(sh[3], "python3");
    assert_eq!(py.arguments["debugLauncherPython"], "python3");
    assert_eq!(py.arguments["args"], json!(["x"]));
    // gdb: one string, which its shell reads.
    let gdb = go("./app.py 'a b' < in.txt", Some("gdb")).unwrap();
    let args = gdb.arguments["args"].as_str().unwrap();
    assert!(
        args.starts_with("'a b' <") && args.ends_with("/in.txt"),
        "{args}"
    );
    // A missing input file, before anything starts.
    let e = go("python3 app.py < nope.txt", None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("nope.txt"), "{e}");
    // delve's launch has no streams to point.
    let e = go("./app.py < in.txt", Some("delve"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("<") && e.contains("delve"), "{e}");
    // A pipeline: the program reads a file the input is written to.
    let p = go("printf '3\\n' | python3 app.py", None).unwrap();
    let (input, file) = p.feed.clone().unwrap();
    assert_eq!(input, "printf '3\\n'");
    assert!(
        p.arguments["python"][2]
            .as_str()
            .unwrap()
            .contains(&file.display().to_string())
    );
}

#[test]
fn substitutes_and_refuses_editor_variables() {
    let root = Path::new("/p/proj");
    assert_eq!(
        substitute("${workspaceFolder}/a.py", root, "c").unwrap(),
        "/p/proj/a.py"
    );
    let e = substitute("${file}", root, "cfg").unwrap_err().to_string();
    assert!(e.contains("${file}") && e.contains("cfg"), "{e}");
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dap-config-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn cppdbg_entries_become_gdb_launches() {
    let root = scratch("cppdbg");
    write(
        &root,
        ".vscode/launch.json",
        r#"{ "configurations": [ /* cpptools */ {
            "name": "native", "type": "cppdbg", "request": "launch",
            "program": "${workspaceFolder}/build/app", "args": ["-v"], "stopAtEntry": true,
            "environment": [{"name": "MODE", "value": "test"}], "MIMode": "gdb",
        }, ] }"#,
    );
    let r = resolve(
        &root,
        &LaunchRequest {
            configuration: Some("native".into()),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(r.adapter.name(), "gdb");
    assert_eq!(
        r.arguments["program"],
        json!(format!("{}/build/app", root.display()))
    );
    assert_eq!(r.arguments["args"], json!(["-v"]));
    // Added to the environment, as cpptools does: gdb's DAP clears it before setting `env`.
    assert_eq!(r.arguments["env"]["MODE"], json!("test"));
    assert_eq!(
        r.arguments["env"]["PATH"],
        json!(std::env::var("PATH").unwrap())
    );
    assert_eq!(r.arguments["stopAtBeginningOfMainSubprogram"], json!(true));
    assert!(
        r.arguments.get("MIMode").is_none(),
        "cpptools-only keys are not sent to gdb"
    );
    let listed = list(&root).unwrap();
    assert_eq!(
        (listed[0].name.as_str(), listed[0].type_name.as_str()),
        ("native", "cppdbg")
    );
}

#[test]
fn toml_entries_with_commands_and_extra_args() {
    let root = scratch("toml");
    write(&root, "tool.py", "print(1)\n");
    write(
        &root,
        "debugger-mcp.toml",
        "brave_mode = true\n[[launch]]\nname = \"cli\"\ncommand = \"python3 tool.py --fast\"\nargs = [\"x\"]\n\
         env = { LEVEL = 2 }\nstop_on_exception = true\n[launch.adapter_args]\njustMyCode = false\n",
    );
    let r = resolve(
        &root,
        &LaunchRequest {
            configuration: Some("cli".into()),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(r.adapter.name(), "debugpy");
    assert_eq!(
        r.arguments["program"],
        json!(format!("{}/tool.py", root.display()))
    );
    assert_eq!(r.arguments["args"], json!(["--fast", "x"]));
    assert_eq!(r.arguments["env"], json!({"LEVEL": "2"}));
    assert_eq!(r.arguments["justMyCode"], json!(false));
    assert_eq!(r.arguments["console"], json!("internalConsole"));
    assert!(r.stop_on_exception && !r.stop_on_entry);
    // Settings beside the launch entries do not disturb them; unknown configurations list the known.
    let e = resolve(
        &root,
        &LaunchRequest {
            configuration: Some("other".into()),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("'cli'"), "{e}");
}

#[test]
fn python_command_infers_debugpy() {
    let root = scratch("pycmd");
    write(&root, "app.py", "print(1)\n");
    let (a, g) = from_words(
        &root,
        split_command("python3 -u app.py --n 3").unwrap(),
        None,
    )
    .unwrap();
    assert_eq!(a.name(), "debugpy");
    assert_eq!(g.program, Some(root.join("app.py").display().to_string()));
    let missing = from_words(&root, split_command("python3 nope.py").unwrap(), None).unwrap_err();
    assert!(
        matches!(&missing, BackendError::NotFound(m) if m.contains("nope.py")),
        "{missing:?}"
    );
    assert_eq!(g.args, vec!["--n", "3"]);
    let (_, g) = from_words(
        Path::new("/tmp"),
        split_command("python3 -m pkg.mod x").unwrap(),
        None,
    )
    .unwrap();
    assert_eq!(g.module.as_deref(), Some("pkg.mod"));
    // Issue 26: `-c` code is debugpy's `code` launch, not a script path that does not exist.
    let (a, g) = from_words(
        &root,
        split_command("python3 -c 'import app; app.f(2)' extra").unwrap(),
        None,
    )
    .unwrap();
    assert_eq!(a.name(), "debugpy");
    assert_eq!((&g.program, &g.module), (&None, &None));
    assert_eq!(g.extra["code"], json!("import app; app.f(2)"));
    assert_eq!(g.args, vec!["extra"]);
    assert_eq!(
        a.launch_arguments(&g)["code"],
        json!("import app; app.f(2)")
    );
}

fn go_launch(root: &Path, command: &str) -> Result<ResolvedLaunch, BackendError> {
    resolve(
        root,
        &LaunchRequest {
            command: Some(command.into()),
            ..Default::default()
        },
    )
}

#[test]
fn go_test_and_go_run_commands_become_delve_launches() {
    let root = scratch("gocmd");
    write(&root, "go.mod", "module x\n");
    write(&root, "main.go", "package main\nfunc main() {}\n");
    write(&root, "calc/calc_test.go", "package calc\n");
    let r = go_launch(
        &root,
        "go test ./calc -run '^TestAdd$' -v -race -tags 'a b' -args extra",
    )
    .unwrap();
    assert_eq!(r.adapter.name(), "delve");
    let calc = root.join("calc").display().to_string();
    assert_eq!(r.arguments["mode"], json!("test"));
    assert_eq!(r.arguments["program"], json!(calc));
    // The test binary's own spelling of go test's flags; tests run in their package.
    assert_eq!(
        r.arguments["args"],
        json!(["-test.run", "^TestAdd$", "-test.v", "extra"])
    );
    assert_eq!(r.arguments["buildFlags"], json!("-race '-tags=a b'"));
    assert_eq!(r.arguments["cwd"], json!(calc));
    // The binary delve builds goes to a temporary directory, not into the project.
    let out = r.arguments["output"].as_str().unwrap();
    assert!(
        out.starts_with(&std::env::temp_dir().display().to_string()),
        "{out}"
    );

    let r = go_launch(&root, "go run . --port 8").unwrap();
    assert_eq!(
        (r.arguments["mode"].clone(), r.arguments["program"].clone()),
        (json!("debug"), json!(root.display().to_string()))
    );
    assert_eq!(r.arguments["args"], json!(["--port", "8"]));

    for (bad, says) in [
        ("go test ./...", "one package at a time"),
        ("go test ./nope", "Go package './nope'"),
        ("go test ./calc -json", "unsupported flag -json"),
        ("go test ./calc -run", "-run needs a value"),
    ] {
        let e = go_launch(&root, bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

#[test]
fn go_launch_json_modes_are_inferred_like_vscode_go() {
    let root = scratch("golaunch");
    write(&root, "main.go", "package main\n");
    write(
        &root,
        ".vscode/launch.json",
        r#"{"configurations": [
            {"name": "pkg", "type": "go", "request": "launch", "mode": "auto", "program": "${workspaceFolder}"},
            {"name": "bin", "type": "go", "request": "launch", "program": "${workspaceFolder}/app"},
            {"name": "mine", "type": "go", "request": "launch", "mode": "test", "program": "${workspaceFolder}", "output": "/tmp/x"},
            {"name": "entry", "type": "go", "request": "launch", "program": "${workspaceFolder}", "stopOnEntry": true}
        ]}"#,
    );
    let get = |n: &str| {
        resolve(
            &root,
            &LaunchRequest {
                configuration: Some(n.into()),
                ..Default::default()
            },
        )
        .unwrap()
        .arguments
    };
    assert_eq!(get("pkg")["mode"], json!("debug"));
    assert!(get("pkg")["output"].is_string());
    assert_eq!(get("bin")["mode"], json!("exec"));
    assert!(
        get("bin").get("output").is_none(),
        "exec mode builds nothing"
    );
    assert_eq!(
        (get("mine")["mode"].clone(), get("mine")["output"].clone()),
        (json!("test"), json!("/tmp/x"))
    );
    // delve's stopOnEntry (before the runtime has a goroutine) becomes a stop at main.main.
    let entry = resolve(
        &root,
        &LaunchRequest {
            configuration: Some("entry".into()),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        entry.stop_on_entry && !entry.arguments.contains_key("stopOnEntry"),
        "{entry:?}"
    );
}

#[test]
fn a_python_launch_that_debugs_starts_through_the_bootstrap() {
    use debugger_mcp_core::backend::LaunchMode;
    let root = scratch("pyboot");
    write(&root, "tool.py", "print(1)\n");
    let req = |mode, command: &str| LaunchRequest {
        command: Some(command.into()),
        mode,
        ..Default::default()
    };
    let r = resolve(&root, &req(LaunchMode::Debug, "python3 tool.py")).unwrap();
    let a = r.arguments["pythonArgs"].as_array().unwrap();
    assert_eq!(a[..2], [json!("-X"), json!("frozen_modules=off")]);
    // A file pydevd hides from stacks, holding the bootstrap.
    let file = std::path::Path::new(a[2].as_str().unwrap());
    assert!(
        file.file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("<frozen ")
    );
    assert!(
        std::fs::read_to_string(file)
            .unwrap()
            .contains("from debugpy.server import cli")
    );
    // The program stays what runs; only the interpreter's arguments change.
    assert_eq!(
        r.arguments["program"],
        json!(root.join("tool.py").display().to_string())
    );
    // Without debugging, the launcher runs the program without debugpy: nothing to skip.
    let r = resolve(&root, &req(LaunchMode::Run, "python3 tool.py")).unwrap();
    assert!(r.arguments.get("pythonArgs").is_none());
}
