package ticoder.jworker;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;

/**
 * A project's compiled classes and jars, when the worker runs candidates
 * inside a project (Go sets the system properties ticoder.classpath, the
 * entries joined by ':', and ticoder.imports, the classes the tests import,
 * joined by ','). The entries are read-only in the sandbox. Programs and
 * tests compile against them, and each test's class loader defines the
 * project's classes afresh from them (after the program's own, which
 * replace the project's classes of the same names), so a project class that
 * calls the class under test calls the candidate, and no static state
 * survives from one test to the next.
 */
final class ProjectPath {
    /** The path of this worker; empty when it runs no project. */
    static final ProjectPath CURRENT = load();

    private final List<File> entries = new ArrayList<>();
    private final List<String> imports = new ArrayList<>();
    private final URLClassLoader reader;

    private ProjectPath(String path, String imports) {
        List<URL> urls = new ArrayList<>();
        for (String p : path.split(":")) {
            if (p.isEmpty()) {
                continue;
            }
            File f = new File(p);
            try {
                urls.add(f.toURI().toURL());
                entries.add(f);
            } catch (MalformedURLException e) {
                // not a path the JVM can name: left out
            }
        }
        for (String im : imports.split(",")) {
            if (im.matches("[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)+")) {
                this.imports.add(im);
            }
        }
        // Parent null: it reads the entries only, never the JDK's or the
        // worker's classes.
        reader = new URLClassLoader("ticoder-project", urls.toArray(new URL[0]), null);
    }

    private static ProjectPath load() {
        return new ProjectPath(System.getProperty("ticoder.classpath", ""), System.getProperty("ticoder.imports", ""));
    }

    /** Reports whether the worker runs a project's candidates. */
    boolean active() {
        return !entries.isEmpty();
    }

    /** Puts the entries on the compiler's class path. */
    void configure(StandardJavaFileManager files) throws IOException {
        if (active()) {
            files.setLocation(StandardLocation.CLASS_PATH, entries);
        }
    }

    /** The import declarations a unit of tests starts with. */
    String importLines() {
        StringBuilder b = new StringBuilder();
        for (String im : imports) {
            b.append("import ").append(im).append("; ");
        }
        return b.toString();
    }

    /** The bytes of the project's class of this binary name, or null. */
    byte[] classBytes(String name) {
        if (!active()) {
            return null;
        }
        URL u = reader.findResource(name.replace('.', '/') + ".class");
        if (u == null) {
            return null;
        }
        try (InputStream s = u.openStream()) {
            return s.readAllBytes();
        } catch (IOException e) {
            return null;
        }
    }

    /** The project's resource of this name (a properties file), or null. */
    URL resource(String name) {
        return active() ? reader.findResource(name) : null;
    }

    /** The package of a class file object's binary name. */
    static String packageOf(String binaryName) {
        int dot = binaryName.lastIndexOf('.');
        return dot < 0 ? "" : binaryName.substring(0, dot);
    }

    /** Keeps the files of the class path that the program does not replace. */
    static List<JavaFileObject> without(Iterable<JavaFileObject> files, java.util.function.Function<JavaFileObject, String> name,
            java.util.Map<String, byte[]> program) {
        List<JavaFileObject> out = new ArrayList<>();
        for (JavaFileObject f : files) {
            if (program == null || !program.containsKey(name.apply(f))) {
                out.add(f);
            }
        }
        return out;
    }
}
