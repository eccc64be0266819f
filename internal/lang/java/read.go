package java

import (
	"errors"
	"fmt"
	"strings"
)

// ReadValue reads a value a user typed, written as Java source or in MBJP's
// example notation: literals (3, -2L, 1.5f, 'c', "abc", true, null), casts
// ((short) 3), arrays (new int[] {1, 2}, new int[][] {{1}, {2}}, {1, 2}),
// Arrays.asList(…) (also Arrays.<T>asList(…)), List.of(…), Set.of(…),
// Map.of(k, v, …), new ArrayList<>(…), and MBJP's [1, 2], (1, 2), {k: v}
// and the JVM worker's {k=v}. It reads, never runs: anything else (a call of the
// program, a variable, an operator) is refused.
func ReadValue(s string) (Value, error) {
	if len(s) > maxLiteral {
		return Value{}, fmt.Errorf("value of %d bytes: too long", len(s))
	}
	p := &parser{s: s}
	v, err := p.java(0)
	if err != nil {
		return Value{}, err
	}
	p.blank()
	if p.i != len(p.s) {
		return Value{}, fmt.Errorf("unexpected %q after the value", p.rest())
	}
	return v, nil
}

// collections are the factories and constructors ReadValue reads, with the
// kind of value they make.
var collections = map[string]Kind{
	"Arrays.asList": List, "List.of": List, "Set.of": Set, "Map.of": Map,
	"ArrayList": List, "LinkedList": List, "ArrayDeque": List, "HashSet": Set, "TreeSet": Set,
	"LinkedHashSet": Set, "HashMap": Map, "TreeMap": Map, "LinkedHashMap": Map,
	"Collections.emptyList": List, "Collections.emptySet": Set, "Collections.emptyMap": Map,
}

func (p *parser) java(depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, errors.New("value nested too deeply")
	}
	p.blank()
	if p.i >= len(p.s) {
		return Value{}, errEnd
	}
	switch c := p.s[p.i]; {
	case c == '"' || c == '\'':
		return p.str(c)
	case c == '[':
		return p.javaSeq(']', List, depth)
	case c == '{':
		return p.javaBrace(depth)
	case c == '(':
		if p.cast() {
			return p.java(depth + 1)
		}
		start := p.i
		p.i++
		if v, err := p.java(depth + 1); err == nil {
			p.blank()
			if p.i < len(p.s) && p.s[p.i] == ')' {
				p.i++
				return v, nil // (x) is x
			}
		}
		p.i = start
		return p.javaSeq(')', List, depth)
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		v, err := p.number()
		if err != nil {
			return Value{}, err
		}
		if p.i < len(p.s) && strings.IndexByte("lLfFdD", p.s[p.i]) >= 0 {
			if f := p.s[p.i]; f != 'l' && f != 'L' && v.Kind == Int {
				v.Kind, v.Text = Float, v.Text+".0"
			}
			p.i++
		}
		return v, nil
	}
	name := p.name()
	if strings.HasSuffix(name, ".") && p.i < len(p.s) && p.s[p.i] == '<' {
		// A type witness, as Emit writes: Arrays.<Integer>asList(1, 2).
		p.typeArgs()
		name += p.name()
	}
	switch name {
	case "":
		return Value{}, fmt.Errorf("unexpected %q: not a value", p.rest())
	case "true", "false", "True", "False":
		return Value{Kind: Bool, Text: strings.ToLower(name)}, nil
	case "null", "None":
		return Value{Kind: Null}, nil
	case "new":
		return p.javaNew(depth)
	}
	kind, ok := collections[name]
	if !ok || !strings.Contains(name, ".") {
		return Value{}, fmt.Errorf("%q is code, not a value: write literals, arrays, List.of(…), Set.of(…) or Map.of(…)", name)
	}
	p.typeArgs()
	p.blank()
	if p.i >= len(p.s) || p.s[p.i] != '(' {
		return Value{}, fmt.Errorf("want ( after %s", name)
	}
	return p.javaSeq(')', kind, depth)
}

// name reads a dotted identifier (java.util. prefixes dropped).
func (p *parser) name() string {
	j := p.i
	for j < len(p.s) && (isIdent(p.s[j]) || p.s[j] == '.') {
		j++
	}
	name := p.s[p.i:j]
	p.i = j
	for _, pre := range []string{"java.util.", "java.lang."} {
		name = strings.TrimPrefix(name, pre)
	}
	return name
}

// typeArgs skips <…> type arguments.
func (p *parser) typeArgs() {
	p.blank()
	if p.i >= len(p.s) || p.s[p.i] != '<' {
		return
	}
	depth := 0
	for ; p.i < len(p.s); p.i++ {
		switch p.s[p.i] {
		case '<':
			depth++
		case '>':
			depth--
			if depth == 0 {
				p.i++
				return
			}
		}
	}
}

// cast skips a cast such as (long) or (int[]) and reports whether there was one.
func (p *parser) cast() bool {
	j := p.i + 1
	for j < len(p.s) && p.s[j] == ' ' {
		j++
	}
	k := j
	for k < len(p.s) && (isIdent(p.s[k]) || p.s[k] == '.') {
		k++
	}
	if k == j || p.s[j] >= '0' && p.s[j] <= '9' {
		return false
	}
	for k+1 < len(p.s) && p.s[k] == '[' && p.s[k+1] == ']' {
		k += 2
	}
	for k < len(p.s) && p.s[k] == ' ' {
		k++
	}
	if k >= len(p.s) || p.s[k] != ')' {
		return false
	}
	switch p.s[j:k] {
	case "true", "false", "null", "True", "False", "None":
		return false
	}
	p.i = k + 1
	return true
}

// javaNew reads what follows `new`: an array creation with an initializer
// or a collection's constructor.
func (p *parser) javaNew(depth int) (Value, error) {
	p.blank()
	name := p.name()
	if name == "" {
		return Value{}, fmt.Errorf("want a type after new, got %q", p.rest())
	}
	p.typeArgs()
	p.blank()
	if p.i < len(p.s) && p.s[p.i] == '[' {
		for p.i < len(p.s) && p.s[p.i] == '[' {
			p.i++
			p.blank()
			if p.i >= len(p.s) || p.s[p.i] != ']' {
				return Value{}, errors.New("write arrays with an initializer, e.g. new int[] {1, 2}")
			}
			p.i++
			p.blank()
		}
		if p.i >= len(p.s) || p.s[p.i] != '{' {
			return Value{}, errors.New("write arrays with an initializer, e.g. new int[] {1, 2}")
		}
		return p.javaSeq('}', List, depth)
	}
	kind, ok := collections[name]
	if !ok || strings.Contains(name, ".") {
		return Value{}, fmt.Errorf("new %s: only arrays and the JDK's lists, sets and maps are values", name)
	}
	if p.i >= len(p.s) || p.s[p.i] != '(' {
		return Value{}, fmt.Errorf("want ( after new %s", name)
	}
	args, err := p.javaSeq(')', List, depth)
	if err != nil {
		return Value{}, err
	}
	switch len(args.Items) {
	case 0:
		return Value{Kind: kind}, nil
	case 1:
		v := args.Items[0]
		if kind == Map && v.Kind != Map || kind != Map && v.Kind != List && v.Kind != Set {
			return Value{}, fmt.Errorf("new %s: the argument is no %s", name, kindName(kind))
		}
		if kind != Map {
			v.Kind = kind
		}
		return v, nil
	}
	return Value{}, fmt.Errorf("new %s: give at most one collection", name)
}

// javaSeq reads items up to end; a Map takes keys and values alternating
// (Map.of's order).
func (p *parser) javaSeq(end byte, kind Kind, depth int) (Value, error) {
	v, err := p.items(end, Value{Kind: kind, Items: []Value{}}, depth, p.java)
	if err == nil && kind == Map && len(v.Items)%2 != 0 {
		return Value{}, errors.New("Map.of takes keys and values in pairs")
	}
	return v, err
}

// javaBrace reads {a, b} (an array initializer, or a set in MBJP's
// notation: a list either way, which Emit writes as the type needs) or
// {k: v} / {k=v} (a map).
func (p *parser) javaBrace(depth int) (Value, error) {
	p.i++
	v := Value{Kind: List, Items: []Value{}}
	for first := true; ; first = false {
		p.blank()
		if p.i >= len(p.s) {
			return Value{}, errEnd
		}
		if p.s[p.i] == '}' {
			p.i++
			return v, nil
		}
		k, err := p.java(depth + 1)
		if err != nil {
			return Value{}, err
		}
		p.blank()
		pair := p.i < len(p.s) && (p.s[p.i] == ':' || p.s[p.i] == '=')
		if first && pair {
			v.Kind = Map
		}
		if pair != (v.Kind == Map) {
			return Value{}, errors.New("mixed values and key-value pairs in {…}")
		}
		v.Items = append(v.Items, k)
		if pair {
			p.i++
			val, err := p.java(depth + 1)
			if err != nil {
				return Value{}, err
			}
			v.Items = append(v.Items, val)
			p.blank()
		}
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
		} else if p.i < len(p.s) && p.s[p.i] != '}' {
			return Value{}, fmt.Errorf("want ',' or '}', got %q", p.rest())
		}
	}
}
