package standin;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** 8 threads × 1000 JNI round trips in a child JVM under -Xcheck:jni: no JNI warning allowed. */
class XcheckJniTest {
    @Test
    void eightThreadsTimesThousandCallsWithoutJniWarnings() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-Xcheck:jni", "-cp", System.getProperty("java.class.path"),
                "standin.Stress", System.getProperty("debuggermcp.lib"), "8", "1000"))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("STRESS DONE threads=8 calls=1000 failures=0"), out);
        for (String line : out.split("\n")) {
            assertFalse(line.contains("WARNING") || line.contains("FATAL ERROR") || line.contains("JNI"),
                    "JNI check reported: " + line + "\n--- full output ---\n" + out);
        }
    }
}
