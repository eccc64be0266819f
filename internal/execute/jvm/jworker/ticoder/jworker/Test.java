package ticoder.jworker;

/**
 * One test. Kind 'M': source (extra code compiled against the program, may
 * be empty) and name, a class whose static main(String[]) must return
 * normally; it fails by throwing AssertionError or java.lang.Exception.
 * Kind 'V': name is a Java expression (a call of the program), expected
 * an expression or empty; the value is rendered as plain data and, with
 * an expected value, compared by Values.sameValue.
 */
final class Test {
    byte kind;
    String source, name, expected;
    double timeout;
}
