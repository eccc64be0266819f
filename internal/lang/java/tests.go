package java

import (
	"regexp"
	"strings"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/lang"
)

var _ lang.TestExtractor = Java{}

// assertRE finds the JUnit assertions ExtractTests reads.
var assertRE = regexp.MustCompile(`\b(?:Assertions\.)?(assertEquals|assertArrayEquals|assertTrue|assertFalse)\s*\(`)

// maxTestLine bounds one assertion ExtractTests reads.
const maxTestLine = 4096

// ExtractTests implements lang.TestExtractor: each JUnit assertion of the
// reply (assertEquals(EXPECTED, CALL), assertArrayEquals, assertTrue(CALL),
// assertFalse(CALL); a delta or message argument is dropped) whose CALL calls
// entry becomes a value test CALL == EXPECTED, the call qualified with the
// prompt's class. Assertions that do not split, or call no entry, are left
// out; duplicates once.
func (j Java) ExtractTests(prompt, entry, reply string) []execute.Test {
	class := FirstClass(prompt)
	if b, ok := lang.FencedBlock(reply, "java"); ok {
		reply = b
	}
	seen := map[string]bool{}
	var out []execute.Test
	for _, loc := range assertRE.FindAllStringSubmatchIndex(reply, -1) {
		kind := reply[loc[2]:loc[3]]
		args, ok := splitArgs(reply[loc[1]:])
		if !ok {
			continue
		}
		var call, expected string
		switch kind {
		case "assertTrue", "assertFalse":
			if len(args) < 1 || len(args) > 2 {
				continue
			}
			call, expected = args[0], strings.TrimPrefix(kind, "assert")
			expected = strings.ToLower(expected)
		default:
			if len(args) < 2 || len(args) > 3 {
				continue
			}
			expected, call = args[0], args[1]
		}
		if !strings.HasPrefix(call, entry+"(") && !strings.HasPrefix(call, class+"."+entry+"(") {
			continue
		}
		if class != "" && strings.HasPrefix(call, entry+"(") {
			call = class + "." + call
		}
		if seen[call+"\x00"+expected] {
			continue
		}
		seen[call+"\x00"+expected] = true
		out = append(out, j.ValueTest(call, expected))
	}
	return out
}

// splitArgs splits the arguments of a call whose "(" is just before s, at
// top-level commas (outside brackets, braces, strings and characters), up
// to its ")".
func splitArgs(s string) ([]string, bool) {
	if len(s) > maxTestLine {
		s = s[:maxTestLine]
	}
	var args []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\'':
			k := i + 1
			for k < len(s) && s[k] != c && s[k] != '\n' {
				if s[k] == '\\' {
					k++
				}
				k++
			}
			if k >= len(s) || s[k] != c {
				return nil, false
			}
			i = k
		case '(', '[', '{':
			depth++
		case ']', '}':
			depth--
		case ')':
			if depth == 0 {
				args = append(args, strings.TrimSpace(s[start:i]))
				for _, a := range args {
					if a == "" {
						return nil, false
					}
				}
				return args, true
			}
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		case ';', '\n':
			if depth == 0 {
				return nil, false
			}
		}
	}
	return nil, false
}
