package standin;

import com.sun.jdi.*;
import java.util.ArrayList;
import java.util.List;

/**
 * A small Java expression evaluator on JDI (what the stand-in can evaluate without a compiler):
 * identifiers (locals, fields of {@code this}, static fields, class names), field access
 * {@code a.b}, {@code arr.length}, array index {@code a[i]}, method calls with literal or
 * expression arguments (invoked in the debuggee), literals, and the operators
 * {@code ! - * / % + - < <= > >= == != && ||} on primitives (+ on strings).
 */
final class Evaluator {
    static final class EvalError extends RuntimeException {
        EvalError(String m) { super(m); }
    }

    private final Session session;
    private final ThreadReference thread;
    private final int frameIndex;
    private final VirtualMachine vm;
    private List<String> toks;
    private int p;

    /** A class name in an expression (for static fields and methods). */
    private static final class TypeRef {
        final ReferenceType type;
        TypeRef(ReferenceType type) { this.type = type; }
    }

    Evaluator(Session session, ThreadReference thread, int frameIndex) {
        this.session = session;
        this.thread = thread;
        this.frameIndex = frameIndex;
        this.vm = thread.virtualMachine();
    }

    Value eval(String expr) {
        toks = tokenize(expr);
        p = 0;
        Object v = or();
        if (p != toks.size()) throw new EvalError("unexpected '" + toks.get(p) + "' in " + expr);
        if (v instanceof TypeRef) throw new EvalError("'" + expr + "' is a class, not a value");
        return (Value) v;
    }

    // ---- tokens

    private static List<String> tokenize(String s) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) { i++; continue; }
            int start = i;
            if (Character.isJavaIdentifierStart(c)) {
                while (i < s.length() && Character.isJavaIdentifierPart(s.charAt(i))) i++;
            } else if (Character.isDigit(c)) {
                while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '.')) i++;
            } else if (c == '"' || c == '\'') {
                i++;
                while (i < s.length() && s.charAt(i) != c) i += s.charAt(i) == '\\' ? 2 : 1;
                i++;
                if (i > s.length()) throw new EvalError("unterminated literal in " + s);
            } else if (i + 1 < s.length() && List.of("==", "!=", "<=", ">=", "&&", "||").contains(s.substring(i, i + 2))) {
                i += 2;
            } else {
                i++;
            }
            out.add(s.substring(start, i));
        }
        return out;
    }

    private String peek() { return p < toks.size() ? toks.get(p) : ""; }

    private boolean eat(String t) {
        if (peek().equals(t)) { p++; return true; }
        return false;
    }

    private void expect(String t) {
        if (!eat(t)) throw new EvalError("expected '" + t + "'" + (p < toks.size() ? " before '" + peek() + "'" : " at the end"));
    }

    // ---- grammar

    private Object or() {
        Object l = and();
        while (eat("||")) { Object r = and(); l = vm.mirrorOf(bool(l) || bool(r)); }
        return l;
    }

    private Object and() {
        Object l = equality();
        while (eat("&&")) { Object r = equality(); l = vm.mirrorOf(bool(l) && bool(r)); }
        return l;
    }

    private Object equality() {
        Object l = relational();
        while (peek().equals("==") || peek().equals("!=")) {
            boolean eq = toks.get(p++).equals("==");
            Object r = relational();
            boolean same;
            if (l instanceof PrimitiveValue && r instanceof PrimitiveValue) {
                same = (l instanceof BooleanValue || r instanceof BooleanValue) ? bool(l) == bool(r) : dbl(l) == dbl(r);
            } else {
                same = l == null ? r == null : l.equals(r);
            }
            l = vm.mirrorOf(eq == same);
        }
        return l;
    }

    private Object relational() {
        Object l = additive();
        while (List.of("<", ">", "<=", ">=").contains(peek())) {
            String op = toks.get(p++);
            double a = dbl(l), b = dbl(additive());
            boolean r = op.equals("<") ? a < b : op.equals(">") ? a > b : op.equals("<=") ? a <= b : a >= b;
            l = vm.mirrorOf(r);
        }
        return l;
    }

    private Object additive() {
        Object l = multiplicative();
        while (peek().equals("+") || peek().equals("-")) {
            String op = toks.get(p++);
            Object r = multiplicative();
            if (op.equals("+") && (l instanceof StringReference || r instanceof StringReference)) {
                l = vm.mirrorOf(Render.plain((Value) l) + Render.plain((Value) r));
            } else {
                l = arith(op, l, r);
            }
        }
        return l;
    }

    private Object multiplicative() {
        Object l = unary();
        while (peek().equals("*") || peek().equals("/") || peek().equals("%")) {
            String op = toks.get(p++);
            l = arith(op, l, unary());
        }
        return l;
    }

    private Object unary() {
        if (eat("!")) return vm.mirrorOf(!bool(unary()));
        if (eat("-")) return arith("-", vm.mirrorOf(0), unary());
        return postfix();
    }

    private Object postfix() {
        Object v = primary();
        while (true) {
            if (eat(".")) {
                String name = toks.get(p++);
                if (eat("(")) v = call(v, name, args());
                else v = member(v, name);
            } else if (eat("[")) {
                Object idx = or();
                expect("]");
                if (!(v instanceof ArrayReference)) throw new EvalError("indexing a non-array value");
                ArrayReference a = (ArrayReference) v;
                int i = (int) lng(idx);
                if (i < 0 || i >= a.length()) throw new EvalError("index " + i + " out of bounds for length " + a.length());
                v = a.getValue(i);
            } else {
                return v;
            }
        }
    }

    private List<Value> args() {
        List<Value> out = new ArrayList<>();
        if (eat(")")) return out;
        do {
            Object a = or();
            if (a instanceof TypeRef) throw new EvalError("a class is not an argument value");
            out.add((Value) a);
        } while (eat(","));
        expect(")");
        return out;
    }

    private Object primary() {
        String t = peek();
        if (t.isEmpty()) throw new EvalError("expression ended early");
        p++;
        if (t.equals("(")) { Object v = or(); expect(")"); return v; }
        if (t.startsWith("\"")) return vm.mirrorOf(unescape(t.substring(1, t.length() - 1)));
        if (t.startsWith("'")) return vm.mirrorOf(unescape(t.substring(1, t.length() - 1)).charAt(0));
        if (Character.isDigit(t.charAt(0))) return number(t);
        switch (t) {
            case "true": return vm.mirrorOf(true);
            case "false": return vm.mirrorOf(false);
            case "null": return null;
            case "this": {
                ObjectReference self = frame().thisObject();
                if (self == null) throw new EvalError("'this' is not available in a static method");
                return self;
            }
            default:
        }
        if (eat("(")) return call(frame().thisObject() != null ? frame().thisObject() : new TypeRef(frame().location().declaringType()), t, args());
        return identifier(t);
    }

    private StackFrame frame() {
        try {
            return thread.frame(frameIndex);
        } catch (IncompatibleThreadStateException e) {
            throw new EvalError("the thread is not suspended");
        }
    }

    private Object identifier(String name) {
        StackFrame f = frame();
        try {
            LocalVariable lv = f.visibleVariableByName(name);
            if (lv != null) return f.getValue(lv);
        } catch (AbsentInformationException ignored) {
        }
        ObjectReference self = f.thisObject();
        if (self != null) {
            Field fl = self.referenceType().fieldByName(name);
            if (fl != null) return fl.isStatic() ? self.referenceType().getValue(fl) : self.getValue(fl);
        }
        ReferenceType here = f.location().declaringType();
        Field st = here.fieldByName(name);
        if (st != null && st.isStatic()) return here.getValue(st);
        // A class name: same package, java.lang, or fully qualified (a.b.C parsed greedily).
        String pkg = here.name().contains(".") ? here.name().substring(0, here.name().lastIndexOf('.') + 1) : "";
        StringBuilder qualified = new StringBuilder(name);
        int save = p;
        while (true) {
            for (String candidate : List.of(pkg + qualified, "java.lang." + qualified, qualified.toString())) {
                List<ReferenceType> ts = vm.classesByName(candidate);
                if (!ts.isEmpty()) return new TypeRef(ts.get(0));
            }
            if (peek().equals(".") && p + 1 < toks.size() && Character.isJavaIdentifierStart(toks.get(p + 1).charAt(0))) {
                p++;
                qualified.append('.').append(toks.get(p++));
            } else {
                break;
            }
        }
        p = save;
        throw new EvalError("cannot find symbol '" + name + "'");
    }

    private Object member(Object target, String name) {
        if (target instanceof TypeRef) {
            ReferenceType t = ((TypeRef) target).type;
            Field f = t.fieldByName(name);
            if (f == null || !f.isStatic()) throw new EvalError("no static field '" + name + "' in " + t.name());
            return t.getValue(f);
        }
        if (target == null) throw new EvalError("NullPointerException: reading '" + name + "' of null");
        if (target instanceof ArrayReference && name.equals("length")) return vm.mirrorOf(((ArrayReference) target).length());
        if (!(target instanceof ObjectReference)) throw new EvalError("a primitive has no field '" + name + "'");
        ObjectReference o = (ObjectReference) target;
        Field f = o.referenceType().fieldByName(name);
        if (f == null) throw new EvalError("no field '" + name + "' in " + o.referenceType().name());
        return f.isStatic() ? o.referenceType().getValue(f) : o.getValue(f);
    }

    private Object call(Object target, String name, List<Value> args) {
        if (target == null) throw new EvalError("NullPointerException: calling '" + name + "' on null");
        ReferenceType type = target instanceof TypeRef ? ((TypeRef) target).type
                : target instanceof ObjectReference ? ((ObjectReference) target).referenceType() : null;
        if (type == null) throw new EvalError("a primitive has no method '" + name + "'");
        Method method = null;
        for (Method m : type.methodsByName(name)) {
            if (m.argumentTypeNames().size() == args.size() && (!(target instanceof TypeRef) || m.isStatic())) {
                method = m;
                break;
            }
        }
        if (method == null) throw new EvalError("no method " + name + " with " + args.size() + " argument(s) in " + type.name());
        try {
            if (target instanceof TypeRef) {
                if (!(type instanceof ClassType)) throw new EvalError(type.name() + " is not a class");
                return ((ClassType) type).invokeMethod(thread, method, args, ObjectReference.INVOKE_SINGLE_THREADED);
            }
            return ((ObjectReference) target).invokeMethod(thread, method, args, ObjectReference.INVOKE_SINGLE_THREADED);
        } catch (InvocationException e) {
            ObjectReference ex = e.exception();
            Field msg = ex.referenceType().fieldByName("detailMessage");
            Value mv = msg == null ? null : ex.getValue(msg);
            throw new EvalError(name + "() threw " + ex.referenceType().name() + (mv instanceof StringReference ? ": " + ((StringReference) mv).value() : ""));
        } catch (InvalidTypeException | ClassNotLoadedException e) {
            throw new EvalError("cannot call " + name + ": " + e);
        } catch (IncompatibleThreadStateException e) {
            throw new EvalError("the thread must be suspended by an event to call methods");
        }
    }

    // ---- values

    private Value number(String t) {
        try {
            if (t.endsWith("L") || t.endsWith("l")) return vm.mirrorOf(Long.parseLong(t.substring(0, t.length() - 1)));
            if (t.endsWith("f") || t.endsWith("F")) return vm.mirrorOf(Float.parseFloat(t));
            if (t.endsWith("d") || t.endsWith("D") || t.contains(".")) return vm.mirrorOf(Double.parseDouble(t));
            long v = Long.parseLong(t);
            return v == (int) v ? vm.mirrorOf((int) v) : vm.mirrorOf(v);
        } catch (NumberFormatException e) {
            throw new EvalError("bad number " + t);
        }
    }

    private static String unescape(String s) {
        return s.replace("\\n", "\n").replace("\\t", "\t").replace("\\\"", "\"").replace("\\'", "'").replace("\\\\", "\\");
    }

    private static Value unbox(Object v) {
        if (v instanceof ObjectReference && !(v instanceof StringReference) && !(v instanceof ArrayReference)) {
            ObjectReference o = (ObjectReference) v;
            if (Render.BOXES.contains(o.referenceType().name())) return o.getValue(o.referenceType().fieldByName("value"));
        }
        return (Value) v;
    }

    private static boolean bool(Object v) {
        Value u = unbox(v);
        if (u instanceof BooleanValue) return ((BooleanValue) u).value();
        throw new EvalError("expected a boolean, got " + Render.value(u));
    }

    private static double dbl(Object v) {
        Value u = unbox(v);
        if (u instanceof CharValue) return ((CharValue) u).value();
        if (u instanceof PrimitiveValue && !(u instanceof BooleanValue)) return ((PrimitiveValue) u).doubleValue();
        throw new EvalError("expected a number, got " + Render.value(u));
    }

    private static long lng(Object v) {
        Value u = unbox(v);
        if (u instanceof PrimitiveValue && !(u instanceof BooleanValue) && !(u instanceof FloatValue) && !(u instanceof DoubleValue)) {
            return ((PrimitiveValue) u).longValue();
        }
        throw new EvalError("expected an integer, got " + Render.value(u));
    }

    private Value arith(String op, Object l, Object r) {
        Value a = unbox(l), b = unbox(r);
        boolean floating = a instanceof DoubleValue || a instanceof FloatValue || b instanceof DoubleValue || b instanceof FloatValue;
        if (floating) {
            double x = dbl(a), y = dbl(b);
            switch (op) {
                case "+": return vm.mirrorOf(x + y);
                case "-": return vm.mirrorOf(x - y);
                case "*": return vm.mirrorOf(x * y);
                case "/": return vm.mirrorOf(x / y);
                default: return vm.mirrorOf(x % y);
            }
        }
        long x = lng(a), y = lng(b);
        boolean wide = a instanceof LongValue || b instanceof LongValue;
        if ((op.equals("/") || op.equals("%")) && y == 0) throw new EvalError("ArithmeticException: / by zero");
        long res = op.equals("+") ? x + y : op.equals("-") ? x - y : op.equals("*") ? x * y : op.equals("/") ? x / y : x % y;
        return wide ? vm.mirrorOf(res) : vm.mirrorOf((int) res);
    }
}
