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
 * classes of the JDK); lists and queues as ArrayLists, other collections as
 * HashSets and maps as HashMaps of snapshots, read through their interfaces
 * (iterator, entrySet) whoever implements them; map entries and Optionals
 * of snapshots. Anything else (an object of the program's own class that is
 * no collection, a lambda) has no snapshot. Comparisons and rendering then
 * run only the JDK's code on the snapshots: a program decides which
 * elements its collections hold, as it decides what it returns, but never
 * how they compare — its own equals, hashCode and toString are not called.
 *
 * <p>Arrays compare as Java's equals compares them (by identity) in
 * {@link #equal}, which MBJP's tests use, and by content in
 * {@link #sameValue}, which value tests use.
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
        return compare(a, b, false);
    }

    /**
     * Reports whether a and b are plain data with equal snapshots, arrays
     * compared by content.
     */
    public static boolean sameValue(Object a, Object b) {
        return compare(a, b, true);
    }

    private static boolean compare(Object a, Object b, boolean arrayContent) {
        try {
            Object sa = snapshot(a, new int[] {MAX_NODES}, arrayContent);
            Object sb = snapshot(b, new int[] {MAX_NODES}, arrayContent);
            return sa == null ? sb == null : sa.equals(sb);
        } catch (NotPlain | RuntimeException | StackOverflowError e) {
            return false;
        }
    }

    /** Reports whether v is plain data (see the class comment). */
    public static boolean isPlain(Object v) {
        try {
            snapshot(v, new int[] {MAX_NODES}, true);
            return true;
        } catch (NotPlain | RuntimeException | StackOverflowError e) {
            return false;
        }
    }

    /** An array under Java's equals: equal only to itself. */
    private record Identity(Object array) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Identity i && i.array == array;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(array);
        }
    }

    private static Object snapshot(Object v, int[] budget, boolean arrayContent) throws NotPlain {
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
        if (c.isHidden()) {
            throw new NotPlain();
        }
        if (c.isArray() && !arrayContent) {
            return new Identity(v);
        }
        if (c.isArray()) {
            int n = Array.getLength(v);
            List<Object> out = new ArrayList<>(Math.min(n, 1024));
            for (int i = 0; i < n; i++) {
                out.add(snapshot(Array.get(v, i), budget, arrayContent));
            }
            return out;
        }
        if (v instanceof Map<?, ?> m) {
            Map<Object, Object> out = new HashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.put(snapshot(e.getKey(), budget, arrayContent), snapshot(e.getValue(), budget, arrayContent));
            }
            return out;
        }
        if (v instanceof Map.Entry<?, ?> e) {
            return new AbstractMap.SimpleImmutableEntry<>(snapshot(e.getKey(), budget, arrayContent), snapshot(e.getValue(), budget, arrayContent));
        }
        if (v instanceof List<?> || v instanceof java.util.Queue<?>) {
            List<Object> out = new ArrayList<>();
            for (Object e : (Collection<?>) v) {
                out.add(snapshot(e, budget, arrayContent));
            }
            return out;
        }
        if (v instanceof Collection<?> col) {
            Set<Object> out = new HashSet<>();
            for (Object e : col) {
                out.add(snapshot(e, budget, arrayContent));
            }
            return out;
        }
        if (v instanceof Optional<?> o && c == Optional.class) {
            return o.isEmpty() ? o : Optional.ofNullable(snapshot(o.get(), budget, arrayContent));
        }
        throw new NotPlain();
    }

    /**
     * Renders plain data as MBJP's examples write values: lists and arrays
     * as [a, b], maps as {k=v}, strings quoted, at most 1000 characters.
     * Returns null for a value that is not plain.
     */
    public static String render(Object v) {
        Object s;
        try {
            s = snapshot(v, new int[] {MAX_NODES}, true);
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
