package langs

import "testing"

// TestTable: every language has a lang.Language, and only those whose
// programs run on workers of their own have a Starter.
func TestTable(t *testing.T) {
	cases := []struct {
		name, lang string
		own        bool
	}{
		{"", "python", false},
		{"python", "python", false},
		{"Python", "python", false},
		{"java", "java", true},
	}
	for _, c := range cases {
		l, ok := Get(c.name)
		if !ok || l.Name() != c.lang {
			t.Errorf("Get(%q) = %v, %v; want %s", c.name, l, ok, c.lang)
		}
		if start, own := Starter(c.name); own != c.own || (start != nil) != c.own {
			t.Errorf("Starter(%q): own %v, want %v", c.name, own, c.own)
		}
	}
	if _, ok := Get("cobol"); ok {
		t.Error("Get knows cobol")
	}
	if _, own := Starter("cobol"); own {
		t.Error("Starter knows cobol")
	}
}
