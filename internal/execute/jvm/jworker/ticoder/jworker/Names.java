package ticoder.jworker;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which of a program's names the tests may see: a type of the program's
 * named like a package's first segment, or like a type the tests' unit
 * imports, would change what the tests' names mean.
 */
final class Names {
    /**
     * The first segments of every package the JVM knows, and of those a
     * program could mean: a type of the program named so would obscure a
     * package the tests name (JLS 6.4.2).
     */
    private static final Set<String> ROOTS = roots();

    private static Set<String> roots() {
        Set<String> out = new HashSet<>(List.of("java", "javax", "jdk", "sun", "com", "org", "ticoder", "junit"));
        for (Module m : ModuleLayer.boot().modules()) {
            for (String p : m.getPackages()) {
                int dot = p.indexOf('.');
                out.add(dot < 0 ? p : p.substring(0, dot));
            }
        }
        return out;
    }

    /**
     * Reports whether a program's class of this binary name stays out of the
     * tests' sight: one in a named package, or one whose name (or that of a
     * class it is nested in) means something in the tests' unit already —
     * a package's first segment, or a type of java.lang or of a package the
     * unit imports. A type of the program's so named would obscure or shadow
     * what the tests mean (JLS 6.4.1, 6.4.2); hidden, it cannot. The tests
     * see only the program's other classes, such as the one they call.
     */
    static boolean hidden(String binaryName) {
        if (binaryName.indexOf('.') >= 0) {
            return true;
        }
        for (int k = binaryName.indexOf('$'); ; k = binaryName.indexOf('$', k + 1)) {
            String n = k < 0 ? binaryName : binaryName.substring(0, k);
            if (!n.isEmpty() && meansSomething(n)) {
                return true;
            }
            if (k < 0) {
                return false;
            }
        }
    }

    private static boolean meansSomething(String simple) {
        if (ROOTS.contains(simple)) {
            return true;
        }
        for (String p : TestSource.IMPORTS) {
            try {
                Class.forName(p + "." + simple, false, null);
                return true;
            } catch (ClassNotFoundException | LinkageError e) {
                // not a type of p
            }
        }
        return false;
    }

    private Names() {
    }
}
