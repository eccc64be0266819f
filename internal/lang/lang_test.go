package lang

import "testing"

func TestFencedBlock(t *testing.T) {
	cases := []struct {
		reply string
		tags  []string
		want  string
		ok    bool
	}{
		{"text\n```java\nclass A {}\n```\nmore", []string{"java"}, "class A {}\n", true},
		{"```python\nx = 1\n```\n```java\nint x;\n```", []string{"java"}, "int x;\n", true},
		{"```\nplain\n```", []string{"java"}, "plain\n", true},
		{"```java\nunterminated", []string{"java"}, "unterminated", true},
		{"no fence", []string{"java"}, "", false},
		{"```python\nx = 1\n```", []string{"java"}, "", false},
		{"```", nil, "", false},
	}
	for _, c := range cases {
		got, ok := FencedBlock(c.reply, c.tags...)
		if got != c.want || ok != c.ok {
			t.Errorf("FencedBlock(%q) = %q, %v; want %q, %v", c.reply, got, ok, c.want, c.ok)
		}
	}
}

func FuzzFencedBlock(f *testing.F) {
	for _, s := range []string{"```java\nx\n```", "```", "a```b\n```c", "```\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if b, ok := FencedBlock(s, "java"); ok && len(b) > len(s) {
			t.Errorf("block longer than the reply")
		}
	})
}
