package ticoder.jworker;

import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** One program and its tests, as Go sends them (see Worker). */
final class Request {
    /** The largest request frame, and text of one. */
    static final int MAX_REQUEST = 64 << 20;

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
