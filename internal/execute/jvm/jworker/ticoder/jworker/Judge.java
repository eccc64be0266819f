package ticoder.jworker;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import ticoder.values.Values;

/**
 * Runs one test's code on a test thread and decides its verdict: a main
 * that returns passes; a 'V' test's value is rendered as plain data and
 * compared by Values, never by the program's own equals.
 */
final class Judge {
    /** Runs test i (classes from loader) and writes what it found into h. */
    static void judge(Loader loader, Test t, int i, Verdict h) {
        try {
            if (t.kind == 'M') {
                Class<?> c = Class.forName(t.name, true, loader);
                Method m = c.getDeclaredMethod("main", String[].class);
                m.setAccessible(true);
                m.invoke(null, (Object) new String[0]);
                h.exception = "";
                h.outcome = Verdict.PASS;
                return;
            }
            Class<?> c = Class.forName(TestSource.CALLS, true, loader);
            Method call = c.getDeclaredMethod("c" + i);
            call.setAccessible(true);
            Object v = call.invoke(null);
            String shown = Values.render(v);
            h.hasValue = true;
            h.value = shown == null ? "" : shown;
            if (shown == null) {
                h.exception = "returned a " + Verdict.clip(v.getClass().getName()) + " object, not plain data";
                h.outcome = Verdict.FAIL;
                return;
            }
            if (t.expected.isEmpty()) {
                h.exception = "";
                h.outcome = Verdict.PASS;
                return;
            }
            Method exp = c.getDeclaredMethod("e" + i);
            exp.setAccessible(true);
            boolean eq = Values.sameValue(v, exp.invoke(null));
            h.exception = "";
            h.outcome = eq ? Verdict.PASS : Verdict.FAIL;
        } catch (Throwable e) {
            Throwable cause = e;
            for (int k = 0; k < 8 && (cause instanceof InvocationTargetException
                    || cause instanceof ExceptionInInitializerError) && cause.getCause() != null; k++) {
                cause = cause.getCause();
            }
            String name = cause.getClass().getName();
            boolean fails = cause instanceof AssertionError || t.kind == 'M' && cause.getClass() == Exception.class;
            h.exception = fails ? (cause instanceof AssertionError ? "AssertionError" : "Exception") : Verdict.clip(name);
            h.outcome = fails ? Verdict.FAIL : Verdict.ERROR;
        }
    }

    private Judge() {
    }
}
