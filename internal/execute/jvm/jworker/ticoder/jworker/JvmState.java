package ticoder.jworker;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.TimeZone;

/**
 * What a program may change of the JVM it shares with the worker and the
 * programs after it, and how the worker puts it back: the JVM's globals
 * before each test, its threads after each test, /tmp after each program.
 */
final class JvmState {
    private final PrintStream sink = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
    private final InputStream emptyIn = InputStream.nullInputStream();
    private final Properties properties;
    private final Locale locale = Locale.getDefault();
    private final TimeZone zone = TimeZone.getDefault();
    /** The live threads once the worker was ready (see ready). */
    private Set<Thread> baseline;

    JvmState() {
        properties = (Properties) System.getProperties().clone();
    }

    /** Notes the threads of a ready worker: any other is a program's. */
    void ready() {
        baseline = liveThreads();
    }

    /**
     * Stops every thread started since the worker was ready; reports whether
     * all of them are gone and every thread of the JVM's own (reference
     * handler, finalizer, cleaner, …) is still alive: a program that stopped
     * one would leave a JVM that leaks memory for the programs after it.
     */
    @SuppressWarnings("removal")
    boolean stopStrays() {
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
    void resetGlobals() {
        System.setOut(sink);
        System.setErr(sink);
        System.setIn(emptyIn);
        System.setProperties((Properties) properties.clone());
        Locale.setDefault(locale);
        TimeZone.setDefault(zone);
        Thread.setDefaultUncaughtExceptionHandler(null);
    }

    /** Empties /tmp without following links; false if something stays. */
    static boolean cleanTmp() {
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
}
