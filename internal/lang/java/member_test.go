package java

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestLocateMethod finds the fixture project's stub with its package,
// imports, Javadoc and signature, and refuses what is not there.
func TestLocateMethod(t *testing.T) {
	src, err := os.ReadFile("../../../testdata/javaproject/src/main/java/com/shop/Pricing.java")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	m, err := LocateMethod(s, "Pricing", "applyDiscount")
	if err != nil {
		t.Fatal(err)
	}
	if m.Package != "com.shop" || m.Class != "Pricing" || !m.Static || !m.Stub || m.Indent != "    " ||
		len(m.Imports) != 1 || m.Signature != "public static long applyDiscount(long cents, int percent)" ||
		!strings.HasPrefix(m.Javadoc, "Applies a discount to a price.") {
		t.Errorf("got %+v", m)
	}
	if !strings.HasPrefix(s[m.Start:], "    /**\n     * Applies") || !strings.HasPrefix(s[m.End:], "\n    /** Describes") {
		t.Errorf("start %q end %q", s[m.Start:m.Start+20], s[m.End:m.End+20])
	}
	d, err := LocateMethod(s, "Pricing", "describe")
	if err != nil || d.Stub {
		t.Errorf("describe: %+v %v", d, err)
	}
	for _, name := range []string{"missing", "MAX_PERCENT", "toString"} {
		if _, err := LocateMethod(s, "Pricing", name); !errors.Is(err, ErrNoMethod) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := LocateMethod("class A { int f() { return 1; } int f(int x) { return x; } }", "A", "f"); !errors.Is(err, ErrNoMethod) {
		t.Errorf("overloaded: %v", err)
	}
}

// TestIsStubBody: the stub rule.
func TestIsStubBody(t *testing.T) {
	for body, want := range map[string]bool{
		"": true, " // TODO\n": true, `throw new UnsupportedOperationException();`: true,
		`throw new java.lang.UnsupportedOperationException("later" /* x */);`: true, "return 0;": true,
		"return null;": true, `return "";`: true, "return 0.0d;": true, "return false;": true,
		"return 1;": false, "return a + b;": false, "throw new IllegalStateException();": false,
		"int x = 0; return x;": false,
	} {
		if got := IsStubBody(body); got != want {
			t.Errorf("IsStubBody(%q) = %v", body, got)
		}
	}
}

// TestSpliceMethod puts a model's method into the file: Javadoc kept,
// moved to the file's indentation, a new import added after the file's, nothing else changed.
func TestSpliceMethod(t *testing.T) {
	orig := "package p;\n\nimport java.util.List;\n\nclass A {\n    /** Doc. */\n    @Deprecated\n    static int f(int x) {\n        return 0;\n    }\n\n    int g() { return 1; }\n}\n"
	m, err := LocateMethod(orig, "A", "f")
	if err != nil {
		t.Fatal(err)
	}
	cand := "import java.util.Arrays;\nimport java.util.List;\n\npublic class A {\n  static int f(int y) {\n    int[] a = {y};\n    return Arrays.stream(a).sum();\n  }\n}\n"
	got, err := SpliceMethod(orig, m, cand)
	if err != nil {
		t.Fatal(err)
	}
	want := "package p;\n\nimport java.util.List;\nimport java.util.Arrays;\n\nclass A {\n    /** Doc. */\n    @Deprecated\n    static int f(int y) {\n      int[] a = {y};\n      return Arrays.stream(a).sum();\n    }\n\n    int g() { return 1; }\n}\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	n, _ := LocateMethod(got, "A", "f")
	if text := MethodText(got, n); !strings.HasPrefix(text, "@Deprecated\nstatic int f(int y) {\n  int[] a") {
		t.Errorf("MethodText: %q", text)
	}
	if _, err := SpliceMethod(orig, m, "class A { int f(int x) { return x; } }"); !errors.Is(err, ErrNoMethod) {
		t.Errorf("not static: %v", err)
	}
}
