package ticoder.jworker;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TimeZone;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.Trees;
import ticoder.values.Values;

/**
 * The JVM worker: PID 1 of a sandbox, it compiles programs in memory and runs
 * each test in a thread of its own, in a fresh class loader, under a time
 * limit.
 *
 * <p>Protocol (stdin from Go, stdout to Go): Go first writes a 32-byte nonce,
 * then frames of a 4-byte big-endian length and a payload. Every frame the
 * worker writes carries the nonce first; code under test cannot learn it (the
 * worker's package is not opened, there is no /proc, no Unsafe, no native
 * code), so bytes it writes to the descriptor blindly are rejected by Go.
 */
public final class Worker {
    private static final int NONCE = 32;
    private static final int MAX_REQUEST = 64 << 20;
    private static final int MAX_TEXT = 2000;
    /** The exported classes programs compile against, read from this module. */
    private static final String[] EXPORTED = {"Values", "Values$NotPlain"};

    // Outcomes, as Go numbers them.
    static final byte PASS = 0, FAIL = 1, ERROR = 2, TIMEOUT = 3, CRASH = 4;

    private final DataInputStream in;
    private final DataOutputStream out;
    private final byte[] nonce = new byte[NONCE];
    private final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    private final StandardJavaFileManager files;
    private final PrintStream sink = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
    private final InputStream emptyIn = InputStream.nullInputStream();
    private final Properties properties;
    private final Locale locale = Locale.getDefault();
    private final TimeZone zone = TimeZone.getDefault();
    private Set<Thread> baseline;

    private Worker() throws IOException {
        in = new DataInputStream(new BufferedInputStream(new FileInputStream(FileDescriptor.in), 1 << 16));
        out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16));
        files = javac.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
        ProjectPath.CURRENT.configure(files);
        properties = (Properties) System.getProperties().clone();
        for (String e : EXPORTED) {
            exported.add(new Exported(e));
        }
    }

    public static void main(String[] args) {
        try {
            new Worker().serve();
        } catch (Throwable t) {
            // Anything unexpected (EOF from Go included) ends the JVM: Go
            // restarts it and reruns what was not reported.
        }
        Runtime.getRuntime().halt(0);
    }

    private void serve() throws IOException {
        in.readFully(nonce);
        resetGlobals();
        // Register every native library of java.base with the boot loader
        // now, so that no program can load one into its own class loader and
        // bind its JNI functions to native methods of classes it defines in
        // jdk.internal.* packages (libjava's NativeMethodAccessorImpl.invoke0
        // calls any method without access checks). The VM loads libjava and
        // libjimage itself, without registering them.
        for (String lib : new String[] {"java", "jimage", "zip", "nio", "net"}) {
            jdk.internal.loader.BootLoader.loadLibrary(lib);
        }
        java.net.InetAddress.getLoopbackAddress();
        cleanTmp();
        warmUp();
        baseline = liveThreads();
        frame('H');
        flush();
        while (true) {
            int n;
            try {
                n = in.readInt();
            } catch (EOFException e) {
                return;
            }
            if (n < 1 || n > MAX_REQUEST) {
                return;
            }
            byte[] payload = new byte[n];
            in.readFully(payload);
            Request r = Request.parse(new DataInputStream(new java.io.ByteArrayInputStream(payload)));
            boolean dirty = run(r);
            dirty |= !cleanTmp();
            frame('D');
            out.writeBoolean(dirty);
            flush();
            if (dirty) {
                return;
            }
        }
    }

    /** One program and its tests. */
    static final class Request {
        String program;
        List<Test> tests = new ArrayList<>();

        static Request parse(DataInputStream d) throws IOException {
            if (d.readByte() != 'R') {
                throw new IOException("unknown request");
            }
            Request r = new Request();
            r.program = text(d);
            int n = d.readInt();
            if (n < 0 || n > 100_000) {
                throw new IOException("bad test count");
            }
            for (int i = 0; i < n; i++) {
                Test t = new Test();
                t.kind = d.readByte();
                t.source = text(d);
                t.name = text(d);
                t.expected = text(d);
                t.timeout = d.readDouble();
                if (t.kind != 'M' && t.kind != 'V' || !(t.timeout > 0 && t.timeout < 3600)) {
                    throw new IOException("bad test");
                }
                r.tests.add(t);
            }
            return r;
        }

        private static String text(DataInputStream d) throws IOException {
            int n = d.readInt();
            if (n < 0 || n > MAX_REQUEST) {
                throw new IOException("bad text");
            }
            byte[] b = new byte[n];
            d.readFully(b);
            return new String(b, StandardCharsets.UTF_8);
        }
    }

    /**
     * One test. Kind 'M': source (extra code compiled against the program, may
     * be empty) and name, a class whose static main(String[]) must return
     * normally; it fails by throwing AssertionError or java.lang.Exception.
     * Kind 'V': name is a Java expression (a call of the program), expected
     * an expression or empty; the value is rendered as plain data and, with
     * an expected value, compared by Values.sameValue.
     */
    static final class Test {
        byte kind;
        String source, name, expected;
        double timeout;
    }

    /** What a test thread found; written by the worker's own code only. */
    static final class Holder {
        volatile byte outcome = CRASH;
        volatile String exception = "no result";
        volatile String value = "";
        volatile boolean hasValue;
    }

    private static final String CALLS = "TicoderCalls__";

    /** Runs one request; returns whether the JVM must be replaced. */
    private boolean run(Request r) throws IOException {
        int n = r.tests.size();
        Map<String, byte[]>[] compiled = compileAll(r);
        for (int i = 0; i < n; i++) {
            Test t = r.tests.get(i);
            long t0 = System.nanoTime();
            Holder h = new Holder();
            boolean dirty = false;
            if (compiled[i] == null) {
                h.outcome = ERROR;
                h.exception = diagnostics[i];
            } else {
                Holder seen = new Holder();
                dirty = runOne(compiled[i], t, i, seen, h);
            }
            frame('T');
            out.writeInt(i);
            out.writeByte(h.outcome);
            text(h.exception);
            out.writeBoolean(h.hasValue);
            text(h.value);
            out.writeDouble((System.nanoTime() - t0) / 1e9);
            flush();
            if (dirty) {
                return true;
            }
        }
        return false;
    }

    private String[] diagnostics;

    /**
     * Compiles the program alone, then the tests (all together; if that
     * fails, each alone, so that one test that does not compile does not take
     * the others with it) as a compilation unit of their own against the
     * program's class files. Each entry is the program's classes and the
     * tests', or null (see diagnostics).
     */
    @SuppressWarnings("unchecked")
    private Map<String, byte[]>[] compileAll(Request r) {
        int n = r.tests.size();
        Map<String, byte[]>[] out = new Map[n];
        diagnostics = new String[n];
        String[] why = new String[1];
        if (n > 0) {
            Map<String, byte[]> together = compileTogether(r.program, r.tests, why);
            if (together != null) {
                java.util.Arrays.fill(out, together);
                return out;
            }
        }
        Map<String, byte[]> program = compile(r.program, null, -1, why);
        if (program == null) {
            java.util.Arrays.fill(diagnostics, why[0]);
            return out;
        }
        if (n == 0) {
            return out;
        }
        Map<String, byte[]> all = compileTests(program, r.tests, null, why);
        if (all != null || n == 1) {
            java.util.Arrays.fill(out, all);
            java.util.Arrays.fill(diagnostics, why[0]);
            return out;
        }
        for (int i = 0; i < n; i++) {
            out[i] = compileTests(program, r.tests, i, why);
            diagnostics[i] = why[0];
        }
        return out;
    }

    /**
     * The packages whose types a test unit imports on demand: MBJP's
     * prompts import these four (java.lang is implicit anyway).
     */
    private static final String[] TEST_IMPORTS = {"java.io", "java.lang", "java.util", "java.math"};

    /**
     * Compiles the tests (only test only, if set) against the program's
     * classes; returns both sets of classes, or null and why[0]. A class of
     * the tests with the binary name of one of the program's does not
     * compile, as it would not in one unit.
     */
    private Map<String, byte[]> compileTests(Map<String, byte[]> program, List<Test> tests, Integer only, String[] why) {
        Map<String, byte[]> classes = compile(testUnit(tests, only), program, -1, why);
        if (classes == null) {
            return null;
        }
        for (String name : classes.keySet()) {
            if (program.containsKey(name)) {
                why[0] = "CompileError: duplicate class: " + clip(name) + " (the program declares a class the tests declare)";
                return null;
            }
        }
        classes.putAll(program);
        return classes;
    }

    /** The source of the tests (only test only, if set), with their imports. */
    private static String testUnit(List<Test> tests, Integer only) {
        StringBuilder b = new StringBuilder(ProjectPath.CURRENT.importLines());
        for (String p : TEST_IMPORTS) {
            b.append("import ").append(p).append(".*; ");
        }
        return b.append('\n').append(testBody(tests, only)).toString();
    }

    /** The source of the tests (only test only, if set). */
    private static String testBody(List<Test> tests, Integer only) {
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

    /**
     * Compiles the program and the tests as one unit, as javac would them
     * apart, where that gives the tests' names the same meanings (a saving
     * of one javac run per program): where the program is in the unnamed
     * package, imports nothing but packages of TEST_IMPORTS and types of
     * theirs, and declares no type that {@link #hidden} keeps from the
     * tests. Every name of the tests then means in the one unit what it
     * means apart, or nothing (a type of a package the program does not
     * import): then the unit does not compile, and compileAll compiles
     * them apart. Returns the classes, or null.
     */
    private Map<String, byte[]> compileTogether(String program, List<Test> tests, String[] why) {
        return compile(program + "\n" + testBody(tests, null), null, program.length(), why);
    }

    /**
     * Reports whether the program's part (before offset end) of a unit
     * parsed by javac is one that compileTogether may compile with the
     * tests.
     */
    private static boolean together(CompilationUnitTree unit, SourcePositions pos, int end) {
        if (unit.getPackageName() != null) {
            return false;
        }
        List<String> allowed = List.of(TEST_IMPORTS);
        for (ImportTree im : unit.getImports()) {
            String q = im.getQualifiedIdentifier().toString();
            int dot = q.lastIndexOf('.');
            if (im.isStatic() || dot < 0 || !allowed.contains(q.substring(0, dot))) {
                return false;
            }
        }
        for (Tree t : unit.getTypeDecls()) {
            if (pos.getStartPosition(unit, t) < end && t instanceof ClassTree c && hidden(c.getSimpleName().toString())) {
                return false;
            }
        }
        return true;
    }

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
        for (String p : TEST_IMPORTS) {
            try {
                Class.forName(p + "." + simple, false, null);
                return true;
            } catch (ClassNotFoundException | LinkageError e) {
                // not a type of p
            }
        }
        return false;
    }

    private static final Pattern PUBLIC_CLASS =
            Pattern.compile("(?m)^\\s*public\\s+(?:(?:final|abstract|static)\\s+)*(?:class|interface|enum|record)\\s+([A-Za-z_$][A-Za-z0-9_$]*)");

    /**
     * Compiles source in memory: class name to bytes, or null and why[0].
     * The class path holds ticoder.values and, if program is set, the
     * program's classes that are not hidden. With together at 0 or more,
     * source is a program (up to that offset) and tests, compiled only if
     * {@link #together} allows it.
     */
    private Map<String, byte[]> compile(String source, Map<String, byte[]> program, int together, String[] why) {
        Matcher m = PUBLIC_CLASS.matcher(source);
        String file = m.find() ? m.group(1) : "Main";
        JavaFileObject src = new SimpleJavaFileObject(URI.create("string:///" + file + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        List<JavaFileObject> visible = new ArrayList<>();
        if (program != null) {
            program.forEach((name, bytes) -> {
                if (!hidden(name)) {
                    visible.add(new ClassBytes(name, bytes));
                }
            });
        }
        Map<String, ByteArrayOutputStream> classes = new HashMap<>();
        JavaFileManager mem = new ForwardingJavaFileManager<>(files) {
            @Override
            public Iterable<JavaFileObject> list(Location location, String pkg, Set<JavaFileObject.Kind> kinds,
                    boolean recurse) throws IOException {
                if (location == javax.tools.StandardLocation.CLASS_PATH) {
                    if (!kinds.contains(JavaFileObject.Kind.CLASS)) {
                        return List.of();
                    }
                    if (pkg.equals("ticoder.values")) {
                        return exported;
                    }
                    if (!ProjectPath.CURRENT.active()) {
                        return pkg.isEmpty() ? visible : List.of();
                    }
                    // The project's classes, but those the program replaces;
                    // the program's classes of a named package are seen
                    // through the tests' imports.
                    List<JavaFileObject> out = new ArrayList<>(pkg.isEmpty() ? visible : List.of());
                    if (program != null && !pkg.isEmpty()) {
                        program.forEach((name, bytes) -> {
                            if (ProjectPath.packageOf(name).equals(pkg)) {
                                out.add(new ClassBytes(name, bytes));
                            }
                        });
                    }
                    out.addAll(ProjectPath.without(super.list(location, pkg, Set.of(JavaFileObject.Kind.CLASS), false),
                            f -> super.inferBinaryName(location, f), program));
                    return out;
                }
                return super.list(location, pkg, kinds, recurse);
            }

            @Override
            public String inferBinaryName(Location location, JavaFileObject file) {
                if (file instanceof ClassBytes c) {
                    return c.binaryName;
                }
                if (file instanceof Exported e) {
                    return e.binaryName;
                }
                return super.inferBinaryName(location, file);
            }

            @Override
            public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                    FileObject sibling) {
                ByteArrayOutputStream buf = new ByteArrayOutputStream();
                classes.put(className, buf);
                return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + ".class"), kind) {
                    @Override
                    public OutputStream openOutputStream() {
                        return buf;
                    }
                };
            }
        };
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        List<String> opts = List.of("-proc:none", "-nowarn", "-Xlint:none", "-g:source,lines", "-implicit:none",
                "--limit-modules", "java.base", "-encoding", "UTF-8",
                "-Xmaxerrs", "3");
        boolean ok;
        try {
            JavacTask task = (JavacTask) javac.getTask(null, mem, diags, opts, null, List.of(src));
            if (together < 0) {
                ok = task.call();
            } else {
                SourcePositions pos = Trees.instance(task).getSourcePositions();
                for (CompilationUnitTree unit : task.parse()) {
                    if (!together(unit, pos, together)) {
                        why[0] = null;
                        return null;
                    }
                }
                task.generate();
                ok = diags.getDiagnostics().stream().noneMatch(d -> d.getKind() == Diagnostic.Kind.ERROR);
            }
        } catch (RuntimeException | StackOverflowError | IOException e) {
            why[0] = "CompileError: javac failed: " + e.getClass().getName();
            return null;
        }
        if (!ok) {
            StringBuilder b = new StringBuilder("CompileError");
            for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
                if (d.getKind() == Diagnostic.Kind.ERROR) {
                    b.append(": line ").append(d.getLineNumber()).append(": ").append(d.getMessage(Locale.ROOT));
                    break;
                }
            }
            why[0] = clip(b.toString());
            return null;
        }
        Map<String, byte[]> out = new HashMap<>();
        classes.forEach((k, v) -> out.put(k, v.toByteArray()));
        return out;
    }

    /** A class file of the program's, for javac. */
    static final class ClassBytes extends SimpleJavaFileObject {
        final String binaryName;
        final byte[] bytes;

        ClassBytes(String binaryName, byte[] bytes) {
            super(URI.create("mem:///program/" + binaryName + ".class"), JavaFileObject.Kind.CLASS);
            this.binaryName = binaryName;
            this.bytes = bytes;
        }

        @Override
        public InputStream openInputStream() {
            return new java.io.ByteArrayInputStream(bytes);
        }
    }

    /** A class file of ticoder.values, for javac. */
    static final class Exported extends SimpleJavaFileObject {
        final String binaryName;
        final byte[] bytes;

        Exported(String simple) throws IOException {
            super(URI.create("mem:///ticoder/values/" + simple + ".class"), JavaFileObject.Kind.CLASS);
            binaryName = "ticoder.values." + simple;
            try (InputStream s = Values.class.getResourceAsStream(simple + ".class")) {
                if (s == null) {
                    throw new IOException("no class file " + simple);
                }
                bytes = s.readAllBytes();
            }
        }

        @Override
        public InputStream openInputStream() {
            return new java.io.ByteArrayInputStream(bytes);
        }
    }

    private final List<JavaFileObject> exported = new ArrayList<>();

    /** Loads a program's classes afresh for each test. */
    static final class Loader extends ClassLoader {
        private final Map<String, byte[]> classes;

        Loader(Map<String, byte[]> classes) {
            super("ticoder-program", ClassLoader.getSystemClassLoader());
            this.classes = classes;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] b = classes.get(name);
            if (b == null) {
                b = ProjectPath.CURRENT.classBytes(name);
            }
            if (b == null) {
                throw new ClassNotFoundException(name);
            }
            return defineClass(name, b, 0, b.length);
        }

        @Override
        protected java.net.URL findResource(String name) {
            return ProjectPath.CURRENT.resource(name);
        }
    }

    /**
     * Runs test i; the test thread writes into seen, and the verdict is
     * copied into h only if the thread finished in time (a stopped thread
     * may still write into seen). Returns whether the JVM must be replaced.
     */
    private boolean runOne(Map<String, byte[]> classes, Test t, int i, Holder seen, Holder h) {
        resetGlobals();
        Loader loader = new Loader(classes);
        Runnable body = () -> body(loader, t, i, seen);
        Thread th = new Thread(null, body, "ticoder-test", 256L << 20);
        th.setDaemon(true);
        th.start();
        long ms = Math.max(1, (long) (t.timeout * 1000));
        try {
            th.join(ms);
        } catch (InterruptedException e) {
            h.outcome = CRASH;
            h.exception = "worker interrupted";
            return true;
        }
        if (th.isAlive()) {
            h.outcome = TIMEOUT;
            h.exception = "";
        } else {
            h.outcome = seen.outcome;
            h.exception = seen.exception;
            h.value = seen.value;
            h.hasValue = seen.hasValue;
        }
        return !stopStrays();
    }

    private void body(Loader loader, Test t, int i, Holder h) {
        try {
            if (t.kind == 'M') {
                Class<?> c = Class.forName(t.name, true, loader);
                Method m = c.getDeclaredMethod("main", String[].class);
                m.setAccessible(true);
                m.invoke(null, (Object) new String[0]);
                h.exception = "";
                h.outcome = PASS;
                return;
            }
            Class<?> c = Class.forName(CALLS, true, loader);
            Method call = c.getDeclaredMethod("c" + i);
            call.setAccessible(true);
            Object v = call.invoke(null);
            String shown = Values.render(v);
            h.hasValue = true;
            h.value = shown == null ? "" : shown;
            if (shown == null) {
                h.exception = "returned a " + clip(v.getClass().getName()) + " object, not plain data";
                h.outcome = FAIL;
                return;
            }
            if (t.expected.isEmpty()) {
                h.exception = "";
                h.outcome = PASS;
                return;
            }
            Method exp = c.getDeclaredMethod("e" + i);
            exp.setAccessible(true);
            boolean eq = Values.sameValue(v, exp.invoke(null));
            h.exception = "";
            h.outcome = eq ? PASS : FAIL;
        } catch (Throwable e) {
            Throwable cause = e;
            for (int k = 0; k < 8 && (cause instanceof InvocationTargetException
                    || cause instanceof ExceptionInInitializerError) && cause.getCause() != null; k++) {
                cause = cause.getCause();
            }
            String name = cause.getClass().getName();
            boolean fails = cause instanceof AssertionError || t.kind == 'M' && cause.getClass() == Exception.class;
            h.exception = fails ? (cause instanceof AssertionError ? "AssertionError" : "Exception") : clip(name);
            h.outcome = fails ? FAIL : ERROR;
        }
    }

    /**
     * Stops every thread started since the worker was ready; reports whether
     * all of them are gone and every thread of the JVM's own (reference
     * handler, finalizer, cleaner, …) is still alive: a program that stopped
     * one would leave a JVM that leaks memory for the programs after it.
     */
    @SuppressWarnings("removal")
    private boolean stopStrays() {
        long deadline = System.nanoTime() + 300_000_000L;
        while (true) {
            List<Thread> strays = new ArrayList<>();
            Set<Thread> live = liveThreads();
            if (!live.containsAll(baseline)) {
                return false;
            }
            for (Thread x : live) {
                if (!baseline.contains(x) && x != Thread.currentThread()) {
                    strays.add(x);
                }
            }
            if (strays.isEmpty()) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            for (Thread x : strays) {
                try {
                    x.stop();
                } catch (Throwable e) {
                    return false;
                }
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                return false;
            }
        }
    }

    private static Set<Thread> liveThreads() {
        ThreadGroup g = Thread.currentThread().getThreadGroup();
        while (g.getParent() != null) {
            g = g.getParent();
        }
        Thread[] all = new Thread[g.activeCount() + 64];
        int n = g.enumerate(all, true);
        Set<Thread> out = new HashSet<>();
        for (int i = 0; i < n; i++) {
            if (all[i].isAlive()) {
                out.add(all[i]);
            }
        }
        return out;
    }

    /** Puts back what a program may have changed of the JVM's global state. */
    private void resetGlobals() {
        System.setOut(sink);
        System.setErr(sink);
        System.setIn(emptyIn);
        System.setProperties((Properties) properties.clone());
        Locale.setDefault(locale);
        TimeZone.setDefault(zone);
        Thread.setDefaultUncaughtExceptionHandler(null);
    }

    /** Empties /tmp without following links; false if something stays. */
    private static boolean cleanTmp() {
        Path tmp = Path.of("/tmp");
        try {
            Files.walkFileTree(tmp, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
                    Files.delete(f);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    if (!d.equals(tmp)) {
                        Files.delete(d);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
            try (var s = Files.list(tmp)) {
                return s.findAny().isEmpty();
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private void warmUp() {
        String[] why = new String[1];
        String src = "import java.io.*;\nimport java.lang.*;\nimport java.util.*;\nimport java.math.*;\nclass W { static int f(List<Integer> x) { int s = 0; for (int v : x) s += v; return s; } }\n";
        Test t = new Test();
        t.kind = 'M';
        t.source = "class Main { public static void main(String[] a) throws Exception { if (W.f(Arrays.asList(1, 2)) != 3) throw new Exception(); } }";
        for (int i = 0; i < 3; i++) {
            Map<String, byte[]> program = compile(src, null, -1, why);
            if (program != null) {
                compileTests(program, List.of(t), null, why);
                compileTogether(src, List.of(t), why);
            }
        }
    }

    private void frame(char type) throws IOException {
        out.write(nonce);
        out.writeByte(type);
    }

    private void text(String s) throws IOException {
        byte[] b = clip(s).getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private void flush() throws IOException {
        out.flush();
    }

    private static String clip(String s) {
        if (s == null) {
            return "";
        }
        return s.length() > MAX_TEXT ? s.substring(0, MAX_TEXT) : s;
    }
}
