package demo;

/** Nested objects for variable expansion; loaded lazily (tests breakpoints bound on class prepare). */
public class Point {
    final int x;
    final int y;
    final Point next;
    String label = "p";

    Point(int x, int y, Point next) {
        this.x = x; // @point-ctor
        this.y = y;
        this.next = next;
    }

    int sum() {
        return x + y + (next == null ? 0 : next.sum());
    }
}
