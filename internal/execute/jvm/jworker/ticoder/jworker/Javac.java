package ticoder.jworker;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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
 * Compiles programs and their tests in memory with javac: the program
 * alone, the tests against its class files (seeing only the program's
 * classes Names does not hide), or both as one unit where that means the
 * same.
 */
final class Javac {
    /** The exported classes programs compile against, read from this module. */
    private static final String[] EXPORTED = {"Values", "Values$NotPlain"};

    private final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    private final StandardJavaFileManager files;
    private final List<JavaFileObject> exported = new ArrayList<>();

    Javac() throws IOException {
        files = javac.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
        ProjectPath.CURRENT.configure(files);
        for (String e : EXPORTED) {
            exported.add(new Exported(e));
        }
    }

    /** Why each test of the last request did not compile (compileAll). */
    String[] diagnostics;

    /**
     * Compiles the program alone, then the tests (all together; if that
     * fails, each alone, so that one test that does not compile does not take
     * the others with it) as a compilation unit of their own against the
     * program's class files. Each entry is the program's classes and the
     * tests', or null (see diagnostics).
     */
    @SuppressWarnings("unchecked")
    Map<String, byte[]>[] compileAll(Request r) {
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
     * Compiles the tests (only test only, if set) against the program's
     * classes; returns both sets of classes, or null and why[0]. A class of
     * the tests with the binary name of one of the program's does not
     * compile, as it would not in one unit.
     */
    private Map<String, byte[]> compileTests(Map<String, byte[]> program, List<Test> tests, Integer only, String[] why) {
        Map<String, byte[]> classes = compile(TestSource.unit(tests, only), program, -1, why);
        if (classes == null) {
            return null;
        }
        for (String name : classes.keySet()) {
            if (program.containsKey(name)) {
                why[0] = "CompileError: duplicate class: " + Verdict.clip(name) + " (the program declares a class the tests declare)";
                return null;
            }
        }
        classes.putAll(program);
        return classes;
    }

    /**
     * Compiles the program and the tests as one unit, as javac would them
     * apart, where that gives the tests' names the same meanings (a saving
     * of one javac run per program): where the program is in the unnamed
     * package, imports nothing but packages of TestSource.IMPORTS and types of
     * theirs, and declares no type that {@link Names#hidden} keeps from the
     * tests. Every name of the tests then means in the one unit what it
     * means apart, or nothing (a type of a package the program does not
     * import): then the unit does not compile, and compileAll compiles
     * them apart. Returns the classes, or null.
     */
    private Map<String, byte[]> compileTogether(String program, List<Test> tests, String[] why) {
        return compile(program + "\n" + TestSource.body(tests, null), null, program.length(), why);
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
        List<String> allowed = List.of(TestSource.IMPORTS);
        for (ImportTree im : unit.getImports()) {
            String q = im.getQualifiedIdentifier().toString();
            int dot = q.lastIndexOf('.');
            if (im.isStatic() || dot < 0 || !allowed.contains(q.substring(0, dot))) {
                return false;
            }
        }
        for (Tree t : unit.getTypeDecls()) {
            if (pos.getStartPosition(unit, t) < end && t instanceof ClassTree c && Names.hidden(c.getSimpleName().toString())) {
                return false;
            }
        }
        return true;
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
                if (!Names.hidden(name)) {
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
            why[0] = Verdict.clip(b.toString());
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


    /** Compiles a small program and test a few times, so that javac is warm. */
    void warmUp() {
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
}
