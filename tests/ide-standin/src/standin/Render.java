package standin;

import com.sun.jdi.*;
import java.util.List;

/** How the stand-in renders and parses JDI values (the IDE's value renderers, in small). */
final class Render {
    private Render() {}

    static final List<String> BOXES = List.of("java.lang.Integer", "java.lang.Long", "java.lang.Short",
            "java.lang.Byte", "java.lang.Double", "java.lang.Float", "java.lang.Boolean", "java.lang.Character");

    static String value(Value v) {
        if (v == null) return "null";
        if (v instanceof StringReference) return quote(((StringReference) v).value());
        if (v instanceof CharValue) return "'" + ((CharValue) v).value() + "'";
        if (v instanceof PrimitiveValue) return v.toString();
        if (v instanceof ArrayReference) {
            ArrayReference a = (ArrayReference) v;
            int n = a.length();
            StringBuilder b = new StringBuilder(((ArrayType) a.type()).componentTypeName()).append('[').append(n).append("] {");
            List<Value> vs = a.getValues(0, Math.min(n, 10));
            for (int i = 0; i < vs.size(); i++) b.append(i > 0 ? ", " : "").append(value(vs.get(i)));
            if (n > 10) b.append(", ...");
            return b.append('}').toString();
        }
        ObjectReference o = (ObjectReference) v;
        String type = o.referenceType().name();
        if (BOXES.contains(type)) return value(o.getValue(o.referenceType().fieldByName("value")));
        String simple = type.substring(type.lastIndexOf('.') + 1);
        Field size = o.referenceType().fieldByName("size");
        if (size != null && !size.isStatic() && type.startsWith("java.util.")) {
            return simple + "@" + o.uniqueID() + " size=" + o.getValue(size);
        }
        return simple + "@" + o.uniqueID();
    }

    /** Tracepoint text: like {@link #value} but strings unquoted. */
    static String plain(Value v) {
        if (v instanceof StringReference) return ((StringReference) v).value();
        return value(v);
    }

    static String type(Value v, Session.Val where) {
        if (v != null) return v.type().name();
        try {
            if (where != null && where.field != null) return where.field.typeName();
        } catch (Exception ignored) {
        }
        return null;
    }

    static long childCount(Value v) {
        if (v instanceof ArrayReference) return ((ArrayReference) v).length();
        if (v instanceof StringReference || !(v instanceof ObjectReference)) return 0;
        ObjectReference o = (ObjectReference) v;
        if (BOXES.contains(o.referenceType().name())) return 0;
        return o.referenceType().allFields().stream().filter(f -> !f.isStatic()).count();
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\t': b.append("\\t"); break;
                default: b.append(c);
            }
        }
        return b.append('"').toString();
    }

    /** Parses user text into a value of {@code type} (primitives, strings, null). */
    static Value parse(VirtualMachine vm, Type type, String text) {
        String t = text.trim();
        try {
            switch (type.name()) {
                case "int": return vm.mirrorOf(Integer.parseInt(t));
                case "long": return vm.mirrorOf(Long.parseLong(t.replaceFirst("[lL]$", "")));
                case "short": return vm.mirrorOf(Short.parseShort(t));
                case "byte": return vm.mirrorOf(Byte.parseByte(t));
                case "double": return vm.mirrorOf(Double.parseDouble(t));
                case "float": return vm.mirrorOf(Float.parseFloat(t));
                case "boolean":
                    if (!t.equals("true") && !t.equals("false")) throw new IllegalArgumentException("expected true or false, got " + t);
                    return vm.mirrorOf(Boolean.parseBoolean(t));
                case "char": {
                    String c = t.length() == 3 && t.startsWith("'") && t.endsWith("'") ? t.substring(1, 2) : t;
                    if (c.length() != 1) throw new IllegalArgumentException("expected one character, got " + t);
                    return vm.mirrorOf(c.charAt(0));
                }
                case "java.lang.String":
                    if (t.equals("null")) return null;
                    if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) t = t.substring(1, t.length() - 1);
                    return vm.mirrorOf(t);
                default:
                    if (t.equals("null")) return null;
                    throw new IllegalArgumentException("can only set primitives, strings and null on " + type.name());
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a valid " + type.name());
        }
    }
}
