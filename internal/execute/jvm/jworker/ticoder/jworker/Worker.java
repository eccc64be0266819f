package ticoder.jworker;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The JVM worker: PID 1 of a sandbox, it compiles programs in memory (Javac)
 * and runs each test in a thread of its own, in a fresh class loader, under
 * a time limit (Runner), where Judge decides its verdict; JvmState puts back
 * what a program changed of the JVM. This class speaks the protocol.
 *
 * <p>Protocol (stdin from Go, stdout to Go): Go first writes a 32-byte nonce,
 * then frames of a 4-byte big-endian length and a payload (a Request). Every
 * frame the worker writes carries the nonce first; code under test cannot
 * learn it (the worker's package is not opened, there is no /proc, no Unsafe,
 * no native code), so bytes it writes to the descriptor blindly are rejected
 * by Go.
 */
public final class Worker {
    private static final int NONCE = 32;

    private final DataInputStream in;
    private final DataOutputStream out;
    private final byte[] nonce = new byte[NONCE];
    private final Javac javac;
    private final JvmState state;
    private final Runner runner;

    private Worker() throws IOException {
        in = new DataInputStream(new BufferedInputStream(new FileInputStream(FileDescriptor.in), 1 << 16));
        out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16));
        javac = new Javac();
        state = new JvmState();
        runner = new Runner(state);
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
        state.resetGlobals();
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
        JvmState.cleanTmp();
        javac.warmUp();
        state.ready();
        frame('H');
        flush();
        while (true) {
            int n;
            try {
                n = in.readInt();
            } catch (EOFException e) {
                return;
            }
            if (n < 1 || n > Request.MAX_REQUEST) {
                return;
            }
            byte[] payload = new byte[n];
            in.readFully(payload);
            Request r = Request.parse(new DataInputStream(new ByteArrayInputStream(payload)));
            boolean dirty = run(r);
            dirty |= !JvmState.cleanTmp();
            frame('D');
            out.writeBoolean(dirty);
            flush();
            if (dirty) {
                return;
            }
        }
    }

    /** Runs one request; returns whether the JVM must be replaced. */
    private boolean run(Request r) throws IOException {
        int n = r.tests.size();
        Map<String, byte[]>[] compiled = javac.compileAll(r);
        for (int i = 0; i < n; i++) {
            Test t = r.tests.get(i);
            long t0 = System.nanoTime();
            Verdict h = new Verdict();
            boolean dirty = false;
            if (compiled[i] == null) {
                h.outcome = Verdict.ERROR;
                h.exception = javac.diagnostics[i];
            } else {
                Verdict seen = new Verdict();
                dirty = runner.runOne(compiled[i], t, i, seen, h);
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

    private void frame(char type) throws IOException {
        out.write(nonce);
        out.writeByte(type);
    }

    private void text(String s) throws IOException {
        byte[] b = Verdict.clip(s).getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private void flush() throws IOException {
        out.flush();
    }
}
