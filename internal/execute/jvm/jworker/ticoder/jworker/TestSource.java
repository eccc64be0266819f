package ticoder.jworker;

import java.util.List;

/**
 * The source of a unit of tests: each 'M' test's code, and a class of
 * methods that evaluate each 'V' test's call and expected value.
 */
final class TestSource {
    /** The class of the calls of 'V' tests: c{i}() and e{i}(). */
    static final String CALLS = "TicoderCalls__";

    /**
     * The packages whose types a test unit imports on demand: MBJP's
     * prompts import these four (java.lang is implicit anyway).
     */
    static final String[] IMPORTS = {"java.io", "java.lang", "java.util", "java.math"};

    /** The source of the tests (only test only, if set), with their imports. */
    static String unit(List<Test> tests, Integer only) {
        StringBuilder b = new StringBuilder(ProjectPath.CURRENT.importLines());
        for (String p : IMPORTS) {
            b.append("import ").append(p).append(".*; ");
        }
        return b.append('\n').append(body(tests, only)).toString();
    }

    /** The source of the tests (only test only, if set). */
    static String body(List<Test> tests, Integer only) {
        StringBuilder b = new StringBuilder();
        StringBuilder calls = new StringBuilder();
        for (int i = 0; i < tests.size(); i++) {
            if (only != null && only != i) {
                continue;
            }
            Test t = tests.get(i);
            b.append(t.source).append('\n');
            if (t.kind == 'V') {
                calls.append("  static Object c").append(i).append("() throws Throwable { return (Object) (")
                        .append(t.name).append("\n); }\n");
                if (!t.expected.isEmpty()) {
                    calls.append("  static Object e").append(i).append("() throws Throwable { return (Object) (")
                            .append(t.expected).append("\n); }\n");
                }
            }
        }
        if (calls.length() > 0) {
            b.append("final class ").append(CALLS).append(" {\n").append(calls).append("}\n");
        }
        return b.toString();
    }

    private TestSource() {
    }
}
