package standin;

import static org.junit.jupiter.api.Assertions.*;

import com.debuggermcp.bridge.InstallBridge;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The tool window's installer entry points over JNI (the same Rust code as `debugger-mcp
 * install`): plan lists every agent and writes nothing; apply writes the workspace config and the
 * IDE settings' token; bad requests become Java exceptions or error strings, never crashes.
 * Only project-local files are written (the real home is only read by plan).
 */
class InstallBridgeTest {
    static String request(Path project, Path settings, String agents) {
        return "{\"agents\":" + agents + ",\"project\":" + Json.write(project.toString())
            + ",\"settings\":" + Json.write(settings.toString()) + ",\"url\":\"http://127.0.0.1:63342/debugger-mcp\"}";
    }

    @Test
    @SuppressWarnings("unchecked")
    void planThenApplyTheWorkspaceConfig() throws Exception {
        Lib.load();
        Path project = Files.createTempDirectory("install-bridge");
        Path settings = project.resolve("ide-config").resolve("settings.toml");
        Map<String, Object> plan = Json.obj(InstallBridge.plan(request(project, settings, "null")));
        List<Map<String, Object>> rows = (List<Map<String, Object>>) plan.get("agents");
        assertEquals(11, rows.size(), plan.toString());
        Map<String, Object> ws = rows.stream().filter(r -> "vscode-workspace".equals(r.get("agent"))).findFirst().orElseThrow();
        assertEquals("create", ws.get("status"));
        assertEquals(project.resolve(".vscode/mcp.json").toString(), ws.get("path"));
        assertFalse(Files.exists(settings), "plan writes nothing");

        Map<String, Object> applied = Json.obj(InstallBridge.apply(request(project, settings, "[\"vscode-workspace\"]")));
        assertEquals(true, applied.get("applied"));
        String toml = Files.readString(settings);
        assertTrue(toml.contains("[http]") && toml.contains("token = "), toml);
        String token = toml.substring(toml.indexOf('"') + 1, toml.lastIndexOf('"'));
        String mcp = Files.readString(project.resolve(".vscode/mcp.json"));
        assertTrue(mcp.contains("\"servers\"") && mcp.contains("Bearer " + token), mcp);

        Map<String, Object> again = Json.obj(InstallBridge.apply(request(project, settings, "[\"vscode-workspace\"]")));
        Map<String, Object> row = ((List<Map<String, Object>>) again.get("agents")).get(0);
        assertEquals("unchanged", row.get("status"), "re-install changes nothing");
    }

    @Test
    void badRequestsAreJavaErrorsNotCrashes() {
        Lib.load();
        RuntimeException e = assertThrows(RuntimeException.class, () -> InstallBridge.plan("{\"project\": 3}"));
        assertTrue(e.getMessage().startsWith("debugger-mcp: bad install request"), e.getMessage());
        e = assertThrows(RuntimeException.class, () -> InstallBridge.plan(null));
        assertTrue(e.getMessage().contains("null"), e.getMessage());
        e = assertThrows(RuntimeException.class,
            () -> InstallBridge.apply("{\"agents\":[\"emacs\"],\"project\":\"/tmp\",\"settings\":\"/tmp/x.toml\"}"));
        assertTrue(e.getMessage().contains("unknown agent 'emacs'"), e.getMessage());
        assertTrue(InstallBridge.publishDiscovery("{not json").startsWith("bad discovery record"));
        InstallBridge.withdrawDiscovery(); // nothing published: a no-op
    }

    /** The tool window's Doctor tab: the same report as `debugger-mcp doctor --json`, over JNI. */
    @Test
    @SuppressWarnings("unchecked")
    void doctorReportsEveryCheckWithTheFixOfEachFailingOne() throws Exception {
        Lib.load();
        Path project = Files.createTempDirectory("doctor-bridge");
        Map<String, Object> report = Json.obj(InstallBridge.doctor(project.toString()));
        assertEquals(project.toString(), report.get("project"));
        List<Map<String, Object>> checks = (List<Map<String, Object>>) report.get("checks");
        List<Object> names = checks.stream().map(c -> c.get("name")).toList();
        for (String name : List.of("python", "gdb", "lldb-dap", "php+xdebug", "discovery", "token", "port 9003")) {
            assertTrue(names.contains(name), name + " missing from " + names);
        }
        for (Map<String, Object> c : checks) {
            assertTrue(c.get("ok") instanceof Boolean && c.get("detail") instanceof String, c.toString());
            if (Boolean.FALSE.equals(c.get("ok"))) assertTrue(c.get("fix") instanceof String, "failing check without a fix: " + c);
        }
        RuntimeException e = assertThrows(RuntimeException.class, () -> InstallBridge.doctor(null));
        assertTrue(e.getMessage().startsWith("debugger-mcp:"), e.getMessage());
    }
}
