import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * ticoder's check of an exported JUnit class: java Main.java TESTCLASS
 * FILE.java… compiles the files as javac -cp JUNIT *.java would (one
 * package, each file a compilation unit of its own), in memory, and runs
 * TESTCLASS with JUnit's launcher.
 *
 * <p>This file holds none of the program's code: the names here mean the
 * JDK's and JUnit's types whatever the program declares (its classes are
 * compiled apart and loaded by name). Its lines carry a nonce that main
 * reads from stdin before any class of the program is initialized, and
 * main prints them through the System.out it saw then: the program can
 * neither read the nonce (not in the command line, a property or a field)
 * nor filter what main prints, so it cannot forge the verdict.
 */
public class Main {
    public static void main(String[] args) throws Exception {
        String nonce = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        PrintStream out = System.out;
        Map<String, byte[]> classes = compile(args, out);
        if (classes == null) {
            System.exit(1);
        }
        // The project's classes (ticoder.classpath) load here too, after
        // the compiled files, which replace those of the same names.
        ClassLoader loader = new URLClassLoader("ticoder-export", projectURLs(), Main.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                byte[] b = classes.get(name);
                if (b == null) {
                    return super.findClass(name);
                }
                return defineClass(name, b, 0, b.length);
            }
        };
        Class<?> tests = Class.forName(args[0], false, loader);
        Thread.currentThread().setContextClassLoader(loader);
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClass(tests)).build();
        LauncherFactory.create().execute(request, listener);
        TestExecutionSummary s = listener.getSummary();
        for (TestExecutionSummary.Failure f : s.getFailures()) {
            String msg = String.valueOf(f.getException());
            if (msg.length() > 300) {
                msg = msg.substring(0, 300);
            }
            out.println("TICODER-FAIL " + nonce + " " + f.getTestIdentifier().getDisplayName() + ": " + msg.replace('\n', ' '));
        }
        out.println("TICODER-DONE " + nonce + " " + s.getTestsSucceededCount() + " " + s.getTestsFailedCount());
        out.flush();
        System.exit(s.getTotalFailureCount() == 0 ? 0 : 1);
    }

    /** The project's class path (ticoder.classpath), as URLs. */
    private static URL[] projectURLs() throws Exception {
        List<URL> out = new ArrayList<>();
        for (String p : System.getProperty("ticoder.classpath", "").split(File.pathSeparator)) {
            if (!p.isEmpty()) {
                out.add(new File(p).toURI().toURL());
            }
        }
        return out.toArray(new URL[0]);
    }

    /** Compiles args[1:] against the class path; null after printing why. */
    private static Map<String, byte[]> compile(String[] args, PrintStream out) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager std = javac.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
        List<File> path = new ArrayList<>();
        for (String p : (System.getProperty("java.class.path") + File.pathSeparator
                + System.getProperty("ticoder.classpath", "")).split(File.pathSeparator)) {
            if (!p.isEmpty()) {
                path.add(new File(p));
            }
        }
        std.setLocation(StandardLocation.CLASS_PATH, path);
        List<File> sources = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            sources.add(new File("/ticoder", args[i]));
        }
        Map<String, ByteArrayOutputStream> bufs = new HashMap<>();
        JavaFileManager mem = new ForwardingJavaFileManager<>(std) {
            @Override
            public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                    FileObject sibling) {
                ByteArrayOutputStream buf = new ByteArrayOutputStream();
                bufs.put(className, buf);
                return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + ".class"), kind) {
                    @Override
                    public OutputStream openOutputStream() {
                        return buf;
                    }
                };
            }
        };
        StringWriter diags = new StringWriter();
        List<String> opts = List.of("-proc:none", "-encoding", "UTF-8", "-nowarn", "-Xlint:none", "-implicit:none");
        boolean ok = javac.getTask(diags, mem, null, opts, null, std.getJavaFileObjectsFromFiles(sources)).call();
        if (!ok) {
            out.println(diags.toString());
            out.flush();
            return null;
        }
        Map<String, byte[]> classes = new HashMap<>();
        bufs.forEach((k, v) -> classes.put(k, v.toByteArray()));
        return classes;
    }
}
