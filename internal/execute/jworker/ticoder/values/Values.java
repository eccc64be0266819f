package ticoder.values;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Comparison and rendering of plain data, decided by the JDK's own code.
 *
 * <p>A value is first copied into a snapshot: strings, characters,
 * booleans, the boxed numbers, BigInteger and BigDecimal as they are (final
 * classes of the JDK), lists, queues and arrays as ArrayLists, other
 * collections as HashSets, maps as HashMaps, map entries and Optionals of
 * snapshots. Anything else (an object of the program's own class, a lambda)
 * has no snapshot. Comparisons and rendering then run only the JDK's code
 * on the snapshots: a program cannot make its own object equal to an
 * expected value, and an object's own equals is never called.
 */
public final class Values {
    private Values() {}

    /** Nodes copied at most for one value. */
    private static final int MAX_NODES = 1_000_000;

    /** Characters of a rendered value at most. */
    private static final int MAX_RENDER = 1000;

    /** Marks a value that has no snapshot. */
    private static final class NotPlain extends Exception {
        NotPlain() {
            super(null, null, false, false);
        }
    }

    /**
     * Reports whether a and b are plain data with equal snapshots (null
     * equals null).
     */
    public static boolean equal(Object a, Object b) {
        try {
            Object sa = snapshot(a, new int[] {MAX_NODES});
            Object sb = snapshot(b, new int[] {MAX_NODES});
            return sa == null ? sb == null : sa.equals(sb);
        } catch (NotPlain | RuntimeException | StackOverflowError e) {
            return false;
        }
    }

    /** Reports whether v is plain data (see the class comment). */
    public static boolean isPlain(Object v) {
        try {
            snapshot(v, new int[] {MAX_NODES});
            return true;
        } catch (NotPlain | RuntimeException | StackOverflowError e) {
            return false;
        }
    }

    private static Object snapshot(Object v, int[] budget) throws NotPlain {
        if (v == null) {
            return null;
        }
        if (--budget[0] < 0) {
            throw new NotPlain();
        }
        Class<?> c = v.getClass();
        if (c == String.class || c == Character.class || c == Boolean.class || c == Integer.class
                || c == Long.class || c == Short.class || c == Byte.class || c == Double.class
                || c == Float.class || c == BigInteger.class || c == BigDecimal.class) {
            return v;
        }
        if (!behavesAsJDK(c)) {
            throw new NotPlain();
        }
        if (c.isArray()) {
            int n = Array.getLength(v);
            List<Object> out = new ArrayList<>(Math.min(n, 1024));
            for (int i = 0; i < n; i++) {
                out.add(snapshot(Array.get(v, i), budget));
            }
            return out;
        }
        if (v instanceof Map<?, ?> m) {
            Map<Object, Object> out = new HashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.put(snapshot(e.getKey(), budget), snapshot(e.getValue(), budget));
            }
            return out;
        }
        if (v instanceof Map.Entry<?, ?> e) {
            return new AbstractMap.SimpleImmutableEntry<>(snapshot(e.getKey(), budget), snapshot(e.getValue(), budget));
        }
        if (v instanceof List<?> || v instanceof java.util.Queue<?>) {
            List<Object> out = new ArrayList<>();
            for (Object e : (Collection<?>) v) {
                out.add(snapshot(e, budget));
            }
            return out;
        }
        if (v instanceof Collection<?> col) {
            Set<Object> out = new HashSet<>();
            for (Object e : col) {
                out.add(snapshot(e, budget));
            }
            return out;
        }
        if (v instanceof Optional<?> o) {
            return o.isEmpty() ? o : Optional.ofNullable(snapshot(o.get(), budget));
        }
        throw new NotPlain();
    }

    /**
     * Reports whether instances of c run only the JDK's code: c is a JDK
     * class, or a subclass (an anonymous one of double-brace initialisation,
     * {@code new HashMap<>() {{ put(1, 2); }}}, as MBJP's tests write
     * expected maps) whose classes up to the JDK declare no method that can
     * override one (only private and static methods).
     */
    private static boolean behavesAsJDK(Class<?> c) {
        for (int depth = 0; c != null && depth < 16; depth++, c = c.getSuperclass()) {
            if (c.isHidden()) {
                return false;
            }
            if (c.getClassLoader() == null) {
                return c != Object.class;
            }
            try {
                for (java.lang.reflect.Method m : c.getDeclaredMethods()) {
                    int mod = m.getModifiers();
                    if (!java.lang.reflect.Modifier.isPrivate(mod) && !java.lang.reflect.Modifier.isStatic(mod)) {
                        return false;
                    }
                }
            } catch (SecurityException | LinkageError e) {
                return false;
            }
        }
        return false;
    }

    /**
     * Renders plain data as MBJP's examples write values: lists and arrays
     * as [a, b], maps as {k=v}, strings quoted, at most 1000 characters.
     * Returns null for a value that is not plain.
     */
    public static String render(Object v) {
        Object s;
        try {
            s = snapshot(v, new int[] {MAX_NODES});
        } catch (NotPlain | RuntimeException | StackOverflowError e) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        render(s, b);
        if (b.length() > MAX_RENDER) {
            b.setLength(MAX_RENDER);
        }
        return b.toString();
    }

    private static void render(Object v, StringBuilder b) {
        if (b.length() > MAX_RENDER) {
            return;
        }
        if (v == null) {
            b.append("null");
        } else if (v instanceof String s) {
            quote(s, '"', b);
        } else if (v instanceof Character ch) {
            quote(String.valueOf(ch), '\'', b);
        } else if (v instanceof Map<?, ?> m) {
            b.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (b.length() > MAX_RENDER) {
                    break;
                }
                if (!first) {
                    b.append(", ");
                }
                first = false;
                render(e.getKey(), b);
                b.append('=');
                render(e.getValue(), b);
            }
            b.append('}');
        } else if (v instanceof Collection<?> col) {
            b.append('[');
            boolean first = true;
            for (Object e : col) {
                if (b.length() > MAX_RENDER) {
                    break;
                }
                if (!first) {
                    b.append(", ");
                }
                first = false;
                render(e, b);
            }
            b.append(']');
        } else {
            b.append(v);
        }
    }

    private static void quote(String s, char q, StringBuilder b) {
        b.append(q);
        for (int i = 0; i < s.length() && b.length() <= MAX_RENDER; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c == q) {
                        b.append('\\').append(c);
                    } else if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append(q);
    }
}
