package java

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestImportNames(t *testing.T) {
	cases := []struct {
		name, line, own string
		want            string
		imports         []string
		ok              bool
	}{
		{
			name:    "JDK types by their simple names",
			line:    "assertEquals(Arrays.<Integer>asList(1, 2), F.f(new HashSet<Integer>(Arrays.<Integer>asList(1))));",
			own:     "F",
			want:    "assertEquals(Arrays.<Integer>asList(1, 2), F.f(new HashSet<Integer>(Arrays.<Integer>asList(1))));",
			imports: []string{"java.util.Arrays", "java.lang.Integer", "java.util.HashSet"},
			ok:      true,
		},
		{
			name:    "a type named in full",
			line:    "assertEquals(java.util.Arrays.asList(1L), F.f(java.lang.Long.MAX_VALUE));",
			own:     "F",
			want:    "assertEquals(Arrays.asList(1L), F.f(Long.MAX_VALUE));",
			imports: []string{"java.util.Arrays", "java.lang.Long"},
			ok:      true,
		},
		{
			name:    "a map's double braces",
			line:    `assertEquals(new HashMap<String, List<Integer>>() {{ put("a", Arrays.<Integer>asList()); }}, F.f());`,
			own:     "F",
			want:    `assertEquals(new HashMap<String, List<Integer>>() {{ put("a", Arrays.<Integer>asList()); }}, F.f());`,
			imports: []string{"java.util.HashMap", "java.lang.String", "java.util.List", "java.lang.Integer", "java.util.Arrays"},
			ok:      true,
		},
		{
			name:    "names in literals, members and the program's own class",
			line:    `assertEquals("Arrays java.util", Stack.f(x.List, 'L', Stack.Arrays));`,
			own:     "Stack",
			want:    `assertEquals("Arrays java.util", Stack.f(x.List, 'L', Stack.Arrays));`,
			imports: nil,
			ok:      true,
		},
		{name: "a package of no known type", line: "assertEquals(javax.crypto.Cipher.ENCRYPT_MODE, F.f());", own: "F"},
		{name: "a package with blanks", line: "assertEquals(java . util.Arrays.asList(1), F.f());", own: "F"},
		{name: "a package's first segment alone", line: "assertEquals(org, F.f());", own: "F"},
		{name: "a Unicode escape", line: `assertEquals(\u0041rrays.asList(1), F.f());`, own: "F"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, imports, ok := importNames(c.line, c.own)
			if ok != c.ok {
				t.Fatalf("importNames(%q) ok = %v, want %v", c.line, ok, c.ok)
			}
			if !ok {
				return
			}
			if got != c.want {
				t.Errorf("importNames(%q) = %q, want %q", c.line, got, c.want)
			}
			if diff := cmp.Diff(c.imports, imports); diff != "" {
				t.Errorf("imports (-want +got):\n%s", diff)
			}
		})
	}
}
