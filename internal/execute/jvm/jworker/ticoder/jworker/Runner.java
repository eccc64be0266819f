package ticoder.jworker;

import java.util.Map;

/**
 * Runs each test in a thread of its own, in a fresh class loader, under its
 * time limit, from the JVM state every test starts with (JvmState).
 */
final class Runner {
    private final JvmState state;

    Runner(JvmState state) {
        this.state = state;
    }

    /**
     * Runs test i; the test thread writes into seen, and the verdict is
     * copied into h only if the thread finished in time (a stopped thread
     * may still write into seen). Returns whether the JVM must be replaced.
     */
    boolean runOne(Map<String, byte[]> classes, Test t, int i, Verdict seen, Verdict h) {
        state.resetGlobals();
        Loader loader = new Loader(classes);
        Runnable body = () -> Judge.judge(loader, t, i, seen);
        Thread th = new Thread(null, body, "ticoder-test", 256L << 20);
        th.setDaemon(true);
        th.start();
        long ms = Math.max(1, (long) (t.timeout * 1000));
        try {
            th.join(ms);
        } catch (InterruptedException e) {
            h.outcome = Verdict.CRASH;
            h.exception = "worker interrupted";
            return true;
        }
        if (th.isAlive()) {
            h.outcome = Verdict.TIMEOUT;
            h.exception = "";
        } else {
            h.outcome = seen.outcome;
            h.exception = seen.exception;
            h.value = seen.value;
            h.hasValue = seen.hasValue;
        }
        return !state.stopStrays();
    }
}
