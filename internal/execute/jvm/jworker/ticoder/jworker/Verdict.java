package ticoder.jworker;

/**
 * What a test thread found: written by the worker's own code only, and read
 * by the worker only once the thread has finished in time. Its texts are
 * clipped (see clip) before they go to Go.
 */
final class Verdict {
    // Outcomes, as Go numbers them.
    static final byte PASS = 0, FAIL = 1, ERROR = 2, TIMEOUT = 3, CRASH = 4;

    /** The most UTF-16 units of a text the worker reports. */
    private static final int MAX_TEXT = 2000;

    volatile byte outcome = CRASH;
    volatile String exception = "no result";
    volatile String value = "";
    volatile boolean hasValue;

    /** s cut to MAX_TEXT units; "" for null. */
    static String clip(String s) {
        if (s == null) {
            return "";
        }
        return s.length() > MAX_TEXT ? s.substring(0, MAX_TEXT) : s;
    }
}
