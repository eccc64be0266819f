package qe

import "testing"

func TestAnyInLanguage(t *testing.T) {
	set := func(langs ...string) *ExampleSet {
		p := &ExampleSet{}
		for _, l := range langs {
			p.Tasks = append(p.Tasks, Task{Problem: Problem{Language: l}})
		}
		return p
	}
	cases := []struct {
		name string
		lang string
		sets []*ExampleSet
		want bool
	}{
		{"no sets", "java", nil, false},
		{"nil sets", "java", []*ExampleSet{nil, nil}, false},
		{"python only", "java", []*ExampleSet{set("", "")}, false},
		{"java in the second set", "java", []*ExampleSet{nil, set(""), set("", "java")}, true},
		{"python asked", "", []*ExampleSet{set("java", "")}, true},
		{"empty set", "java", []*ExampleSet{{}}, false},
	}
	for _, c := range cases {
		if got := AnyInLanguage(c.lang, c.sets...); got != c.want {
			t.Errorf("%s: AnyInLanguage(%q) = %v, want %v", c.name, c.lang, got, c.want)
		}
	}
}
