package demo;

import java.util.ArrayList;
import java.util.List;

/** The program the stand-in debugs. Tests find lines by the `@marker` comments, never by number. */
public class App {
    static int counter = 0;
    private final String name;
    private final Point origin;
    private final int[] values;

    App(String name) {
        this.name = name;
        this.origin = new Point(1, 2, new Point(3, 4, null));
        this.values = new int[] {10, 20, 30, 40, 50};
    }

    int total() {
        int sum = 0; // @total-first
        for (int v : values) {
            sum += v;
        }
        return sum;
    }

    static int square(int x) {
        int result = x * x; // @square-body
        return result; // @square-return
    }

    String describe(int extra) {
        return name + ":" + (values.length + extra);
    }

    public static void main(String[] args) {
        App app = new App("demo"); // @main-first
        int n = 7;
        double ratio = 0.5;
        String greeting = "hello";
        long big = 1234567890123L;
        boolean flag = true;
        char letter = 'x';
        int sq = square(n); // @call-square
        int total = app.total(); // @after-square
        List<String> names = new ArrayList<>();
        names.add("a");
        String[] words = {"alpha", "beta"};
        counter += sq; // @counter
        System.out.println("sq=" + sq + " total=" + total + " " + greeting + ratio + big + flag + letter + names + words.length); // @print
        try {
            throw new IllegalStateException("boom"); // @throw
        } catch (IllegalStateException e) {
            System.err.println("caught " + e.getMessage());
        }
        for (int i = 0; i < 3; i++) {
            counter += i; // @loop
        }
        System.out.println("done " + counter); // @done
    }
}
