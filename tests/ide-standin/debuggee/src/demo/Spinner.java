package demo;

/** A second run configuration: runs until stopped (tests pause and stop of a running program). */
public class Spinner {
    public static void main(String[] args) throws Exception {
        long ticks = 0;
        while (true) {
            ticks++; // @spin
            if (ticks % 100_000_000L == 0) System.out.println("tick " + ticks);
            if (ticks % 1000 == 0) Thread.sleep(1);
        }
    }
}
