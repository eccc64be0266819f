package java

import (
	"strconv"
	"strings"
)

// Inputs implements lang.InputHarvester: new calls of entry made by
// mutating one argument of a prompt example at a time (integers ±1, 0,
// doubled and negated; numbers halved; lists and strings reversed, emptied
// and shortened; booleans flipped), as Java expressions, at most max of
// them, in a fixed order. Calls that do not fit the signature are left out.
func (Java) Inputs(prompt, entry string, max int) []string {
	m, err := FindMethod(prompt, entry)
	if err != nil || max <= 0 {
		return nil
	}
	seen := map[string]bool{}
	var examples [][]Value
	for _, ex := range exampleRE.FindAllStringSubmatch(prompt, -1) {
		if ex[1] != entry {
			continue
		}
		args, err := ParseArgs(ex[2])
		if err != nil || len(args) != len(m.Params) {
			continue
		}
		examples = append(examples, args)
		if call, err := m.emitCall(args); err == nil {
			seen[call] = true // the examples themselves are not new inputs
		}
	}
	var out []string
	// Round-robin over the examples so that each contributes.
	for round := 0; len(out) < max; round++ {
		added := false
		for _, args := range examples {
			for pos := range args {
				muts := mutations(args[pos])
				if round >= len(muts) {
					continue
				}
				next := append([]Value(nil), args...)
				next[pos] = muts[round]
				call, err := m.emitCall(next)
				if err != nil || seen[call] {
					continue
				}
				seen[call] = true
				out = append(out, call)
				added = true
				if len(out) == max {
					return out
				}
			}
		}
		if !added && round > 8 {
			break
		}
	}
	return out
}

func (m Method) emitCall(args []Value) (string, error) {
	parts := make([]string, len(args))
	for i, v := range args {
		var err error
		if parts[i], err = Emit(v, m.Params[i]); err != nil {
			return "", err
		}
	}
	return m.Class + "." + m.Name + "(" + strings.Join(parts, ", ") + ")", nil
}

// mutations returns variants of v, most likely in-domain first.
func mutations(v Value) []Value {
	switch v.Kind {
	case Int:
		n, err := strconv.ParseInt(v.Text, 10, 64)
		if err != nil {
			return nil
		}
		var out []Value
		for _, k := range []int64{n + 1, n - 1, 0, 2 * n, -n, 1} {
			out = append(out, Value{Kind: Int, Text: strconv.FormatInt(k, 10)})
		}
		return out
	case Float:
		f, err := strconv.ParseFloat(v.Text, 64)
		if err != nil {
			return nil
		}
		var out []Value
		for _, k := range []float64{f + 1, f / 2, 0, -f} {
			out = append(out, Value{Kind: Float, Text: strconv.FormatFloat(k, 'g', -1, 64)})
		}
		return out
	case Bool:
		if v.Text == "true" {
			return []Value{{Kind: Bool, Text: "false"}}
		}
		return []Value{{Kind: Bool, Text: "true"}}
	case Str:
		r := []rune(v.Text)
		rev := make([]rune, len(r))
		for i, c := range r {
			rev[len(r)-1-i] = c
		}
		out := []Value{{Kind: Str, Text: string(rev)}, {Kind: Str, Text: strings.ToUpper(v.Text)}}
		if len(r) > 1 {
			out = append(out, Value{Kind: Str, Text: string(r[:len(r)-1])})
		}
		return append(out, Value{Kind: Str, Text: ""})
	case List, Set:
		n := len(v.Items)
		rev := Value{Kind: v.Kind, Items: make([]Value, n)}
		for i, it := range v.Items {
			rev.Items[n-1-i] = it
		}
		out := []Value{rev}
		if n > 1 {
			out = append(out, Value{Kind: v.Kind, Items: v.Items[:n-1]}, Value{Kind: v.Kind, Items: v.Items[1:]})
		}
		if n > 0 {
			for _, m := range mutations(v.Items[0]) {
				items := append([]Value{m}, v.Items[1:]...)
				out = append(out, Value{Kind: v.Kind, Items: items})
				break
			}
		}
		return append(out, Value{Kind: v.Kind})
	}
	return nil
}
