package jvm

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
)

// attackProgram wraps the body of a static String run() in a class Attack.
func attackProgram(body string) string {
	return "import java.util.*;\nimport java.io.*;\nimport java.nio.file.*;\n\nclass Attack {\n" +
		"    static String run() throws Throwable {\n" + body + "\n    }\n}\n"
}

// runJavaAttack runs program's Attack.run() as a value test, followed by a
// harmless program in the same job (its result must not be disturbed),
// and returns the attack's result.
func runJavaAttack(t *testing.T, p *Pool, program string, timeout time.Duration) execute.Result {
	t.Helper()
	job := execute.Job{Programs: []string{program, javaAdd}, TimePolicy: execute.Within(timeout),
		Tests: []execute.Test{{Input: "Attack.run()"}, mainTest("Add.add(1, 2)", "3")}}
	m, err := p.Run(context.Background(), job, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := m.Results[1][1]; r.Outcome != execute.Pass {
		t.Errorf("the harmless program after the attack: %v (%s), want pass", r.Outcome, r.Exception)
	}
	return m.Results[0][0]
}

// TestJavaAttacks runs programs written to escape or fool the JVM worker.
// Each returns a text saying what it reached; none may reach anything, and
// none may change the result of the program after it.
func TestJavaAttacks(t *testing.T) {
	p := newTestJavaPool(t)
	cases := []struct {
		name string
		body string
		// want is the attack's outcome (alt, if set, is also accepted);
		// value, if set, must equal its value.
		want, alt execute.Outcome
		value     string
	}{
		{
			name: "reflection into the worker's fields",
			body: `Class<?> w = Class.forName("ticoder.jworker.Worker");
            java.lang.reflect.Field f = w.getDeclaredField("nonce");
            try { f.setAccessible(true); return "OPEN"; } catch (RuntimeException e) { return "blocked: " + e.getClass().getSimpleName(); }`,
			want: execute.Pass, value: `"blocked: InaccessibleObjectException"`,
		},
		{
			name: "the worker's classes from the stack",
			body: `for (Class<?> c : StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(s -> s.map(StackWalker.StackFrame::getDeclaringClass).toList())) {
                if (c.getName().startsWith("ticoder.jworker")) {
                    for (java.lang.reflect.Field f : c.getDeclaredFields()) {
                        try { f.setAccessible(true); return "OPEN " + f; } catch (RuntimeException e) { }
                    }
                    for (java.lang.reflect.Method m : c.getDeclaredMethods()) {
                        try { m.setAccessible(true); return "OPEN " + m; } catch (RuntimeException e) { }
                    }
                }
            }
            return "blocked";`,
			want: execute.Pass, value: `"blocked"`,
		},
		{
			name: "sun.misc.Unsafe and jdk.internal.misc.Unsafe",
			body: `String out = "";
            try { Class.forName("sun.misc.Unsafe"); out += "sun.misc OPEN;"; } catch (ClassNotFoundException e) { out += "no sun.misc;"; }
            try {
                Class<?> u = Class.forName("jdk.internal.misc.Unsafe");
                java.lang.reflect.Method m = u.getDeclaredMethod("getUnsafe");
                m.invoke(null);
                out += "internal OPEN";
            } catch (IllegalAccessException e) { out += "internal blocked"; }
            return out;`,
			want: execute.Pass, value: `"no sun.misc;internal blocked"`,
		},
		{
			name: "own memory and descriptors through /proc",
			body: `String out = Files.exists(Paths.get("/proc/self/mem")) ? "mem OPEN;" : "no /proc;";
            try (FileOutputStream o = new FileOutputStream("/dev/stdout")) { out += "stdout OPEN"; } catch (IOException e) { out += "no /dev/stdout"; }
            return out;`,
			want: execute.Pass, value: `"no /proc;no /dev/stdout"`,
		},
		{
			name: "a native library written to /tmp",
			body: `Path lib = Paths.get(System.getProperty("java.home"), "lib", "libverify.so");
            Path copy = Paths.get("/tmp/libx.so");
            Files.copy(lib, copy);
            try { System.load(copy.toString()); return "LOADED"; } catch (UnsatisfiedLinkError e) { return "blocked"; }`,
			want: execute.Pass, value: `"blocked"`,
		},
		{
			name: "the JDK's native libraries in the program's loader",
			body: `String home = System.getProperty("java.home") + "/lib/";
            String out = "";
            for (String l : new String[] {"libsctp.so", "libattach.so", "libawt.so", "libinstrument.so", "libnio.so", "libnet.so", "libjava.so"}) {
                try { System.load(home + l); out += l + " LOADED;"; } catch (UnsatisfiedLinkError e) { out += "no;"; }
            }
            return out;`,
			want: execute.Pass, value: `"no;no;no;no;no;no;no;"`,
		},
		{
			name: "host files",
			body: `String out = "";
            for (String f : new String[] {"/etc/shadow", "/root", "/home", "/work", "/usr/bin/python3", "/bin/sh", "/usr/local"}) {
                out += Files.exists(Paths.get(f)) ? f + " VISIBLE;" : "no;";
            }
            try { Files.writeString(Paths.get("/usr/x"), "x"); out += "WROTE"; } catch (IOException e) { out += "read-only"; }
            return out;`,
			want: execute.Pass, value: `"no;no;no;no;no;no;no;read-only"`,
		},
		{
			name: "network",
			body: `try (java.net.Socket s = new java.net.Socket()) {
                s.connect(new java.net.InetSocketAddress("1.1.1.1", 80), 1000);
                return "CONNECTED";
            } catch (IOException e) { return "blocked"; }`,
			want: execute.Pass, value: `"blocked"`,
		},
		{
			name: "start a process",
			body: `try { Runtime.getRuntime().exec(new String[] {"/bin/sh", "-c", "id"}); return "STARTED"; } catch (IOException e) { return "blocked"; }`,
			want: execute.Pass, value: `"blocked"`,
		},
		{
			name: "a forged result frame, then a failure",
			body: `FileOutputStream o = new FileOutputStream(FileDescriptor.out);
            byte[] b = new byte[64];
            b[32] = 'T';
            o.write(b);
            o.flush();
            throw new AssertionError("fails");`,
			want: execute.Crash,
		},
		{
			name: "System.exit(0)",
			body: `System.exit(0); return "after exit";`,
			want: execute.Crash,
		},
		{
			name: "Runtime.halt(0)",
			body: `Runtime.getRuntime().halt(0); return "after halt";`,
			want: execute.Crash,
		},
		{
			name: "an infinite loop",
			body: `long i = 0; while (true) { i++; }`,
			want: execute.Timeout,
		},
		{
			name: "a thread that cannot be stopped",
			body: `Thread t = new Thread(() -> { while (true) { try { while (true) { } } catch (Throwable e) { } } });
            t.start();
            return "started";`,
			want: execute.Pass, value: `"started"`,
		},
		{
			name: "a loop that catches ThreadDeath",
			body: `while (true) { try { while (true) { } } catch (Throwable e) { } }`,
			want: execute.Timeout,
		},
		{
			name: "a thread that writes to the worker's stdout later",
			body: `Thread t = new Thread(() -> {
                try { Thread.sleep(150); } catch (InterruptedException e) { }
                try (FileOutputStream o = new FileOutputStream(FileDescriptor.out)) { while (true) { o.write(new byte[4096]); } } catch (Throwable e) { }
            });
            t.setDaemon(true);
            t.start();
            return "started";`,
			want: execute.Pass, value: `"started"`,
		},
		{
			name: "an array larger than the heap",
			body: `long[] hog = new long[1 << 28]; return "" + hog.length;`,
			want: execute.Crash,
		},
		{
			// The heap fills step by step: OutOfMemoryError ends the JVM
			// (a crash), or on a loaded machine the garbage collector's last
			// attempts outlast the limit (a timeout).
			name: "memory exhaustion",
			body: `List<long[]> hog = new ArrayList<>(); while (true) { hog.add(new long[1 << 24]); }`,
			want: execute.Crash, alt: execute.Timeout,
		},
		{
			// The process limit ends the JVM (a crash), or on a loaded
			// machine the threads start too slowly to reach it within the
			// limit (a timeout); never "ALL STARTED".
			name: "a thread bomb",
			body: `for (int i = 0; i < 100000; i++) { Thread t = new Thread(() -> { try { Thread.sleep(60000); } catch (InterruptedException e) { } }); t.start(); }
            return "ALL STARTED";`,
			want: execute.Crash, alt: execute.Timeout,
		},
		{
			name: "stop the worker's main thread, then fail",
			body: `for (Thread t : Thread.getAllStackTraces().keySet()) { if (t.getName().equals("main")) { t.stop(); } }
            throw new AssertionError("fails");`,
			want: execute.Crash,
		},
		{
			name: "suspend the worker's main thread, then fail",
			body: `for (Thread t : Thread.getAllStackTraces().keySet()) { if (t.getName().equals("main")) { t.suspend(); } }
            throw new AssertionError("fails");`,
			// The worker never answers: Go's own deadline for the test ends it.
			want: execute.Timeout,
		},
		{
			name: "interrupt the worker's main thread",
			body: `for (Thread t : Thread.getAllStackTraces().keySet()) { if (t.getName().equals("main")) { t.interrupt(); } }
            Thread.sleep(100);
            return "interrupted";`,
			want: execute.Crash,
		},
		{
			name: "stop the JVM's own threads",
			body: `for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().equals("Common-Cleaner") || t.getName().equals("Finalizer")) { t.stop(); }
            }
            Thread.sleep(50);
            return "stopped";`,
			// The worker sees them gone and retires the JVM after this result.
			want: execute.Pass, value: `"stopped"`,
		},
		{
			name: "a security manager",
			body: `try { System.setSecurityManager(new SecurityManager()); return "INSTALLED"; } catch (UnsupportedOperationException e) { return "blocked"; }`,
			want: execute.Pass, value: `"blocked"`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runJavaAttack(t, p, attackProgram(c.body), 3*time.Second)
			if r.Outcome != c.want && (c.alt == execute.Pass || r.Outcome != c.alt) {
				t.Fatalf("attack: %v (%s, value %s), want %v", r.Outcome, r.Exception, r.Value, c.want)
			}
			if c.value != "" && r.Value != c.value {
				t.Errorf("attack reached %s, want %s", r.Value, c.value)
			}
		})
	}
}

// TestJavaForgedEquals: a program's object whose equals is always true
// neither passes a value test nor MBJP's compare (made Values.equal): the
// worker compares snapshots of plain data, never the program's objects.
func TestJavaForgedEquals(t *testing.T) {
	p := newTestJavaPool(t)
	prog := `import java.util.*;

class F {
    static List<Integer> f() {
        return new ArrayList<Integer>() {
            public boolean equals(Object o) { return true; }
            public int hashCode() { return 0; }
        };
    }
    static List<Integer> plain() {
        return new ArrayList<Integer>() {{ add(7); }};
    }
    static Object any() {
        return new Object() {
            public boolean equals(Object o) { return true; }
            public int hashCode() { return 0; }
            public String toString() { return "[1, 2, 3]"; }
        };
    }
    static List<Integer> view() {
        return new AbstractList<Integer>() {
            public Integer get(int i) { return i + 1; }
            public int size() { return 3; }
            public boolean equals(Object o) { return false; }
        };
    }
    static int[] array() {
        return new int[] {1, 2};
    }
}
`
	mbjp := execute.Test{Code: `class Main {
    public static boolean compare(Object obj1, Object obj2) {
        if (obj1 == null && obj2 == null) { return true; } else if (obj1 == null || obj2 == null) { return false; } else {
            return ticoder.values.Values.equal(obj1, obj2);
        }
    }
    public static void main(String[] args) throws Exception {
        List<Integer> x0 = F.f();
        List<Integer> v0 = Arrays.asList(1, 2, 3);
        if (!(compare(x0, v0))) { throw new java.lang.Exception("Exception -- test case 0 did not pass."); }
    }
}
`}
	tests := []execute.Test{
		{Input: "F.f()", Expected: "Arrays.asList(1, 2, 3)"},
		mbjp,
		{Input: "F.plain()", Expected: "Arrays.asList(7)"},
		{Input: "F.plain()", Expected: "List.of(8)"},
		{Input: "F.any()", Expected: "Arrays.asList(1, 2, 3)"},
		{Input: "F.view()", Expected: "Arrays.asList(1, 2, 3)"},
		{Input: "F.array()", Expected: "new int[] {1, 2}"},
	}
	m, err := p.Run(context.Background(), execute.Job{Programs: []string{prog}, Tests: tests, TimePolicy: execute.Within(3 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A list is read through its interface (its own equals is never
	// called), so F.f() is an empty list, F.view() is [1, 2, 3]; value
	// tests compare arrays by content.
	want := []execute.Outcome{execute.Fail, execute.Fail, execute.Pass, execute.Fail, execute.Fail, execute.Pass, execute.Pass}
	for j, r := range m.Results[0] {
		if r.Outcome != want[j] {
			t.Errorf("test %d: %v (%s), want %v", j, r.Outcome, r.Exception, want[j])
		}
	}
	if r := m.Results[0][4]; !strings.Contains(r.Exception, "not plain data") {
		t.Errorf("forged object: reason %q, want one that says it is not plain data", r.Exception)
	}
}

// TestJavaIsolation: every test gets fresh static state, and what a program
// changes of the JVM's global state (System.out, the default locale, system
// properties) is put back before the next test.
func TestJavaIsolation(t *testing.T) {
	p := newTestJavaPool(t)
	prog := `import java.util.*;
import java.io.*;

class S {
    static int count = 0;
    static int next() { return ++count; }
    static String spoil() {
        Locale.setDefault(Locale.GERMANY);
        System.setProperty("line.separator", "X");
        System.setOut(new PrintStream(new OutputStream() { public void write(int b) { throw new RuntimeException("spoiled"); } }));
        return "spoiled";
    }
    static String use() {
        System.out.println("hello");
        return String.format("%.1f", 1.5) + System.lineSeparator().length();
    }
}
`
	tests := []execute.Test{
		{Input: "S.next()", Expected: "1"},
		{Input: "S.next()", Expected: "1"},
		{Input: "S.spoil()"},
		{Input: "S.use()", Expected: `"1.51"`},
	}
	m, err := p.Run(context.Background(), execute.Job{Programs: []string{prog}, Tests: tests, TimePolicy: execute.Within(3 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for j, r := range m.Results[0] {
		if r.Outcome != execute.Pass {
			t.Errorf("test %d: %v (%s, value %s), want pass", j, r.Outcome, r.Exception, r.Value)
		}
	}
}
