package java

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the kind of a literal value in MBJP's example notation.
type Kind uint8

// The kinds of literal values.
const (
	Null Kind = iota
	Bool
	Int
	Float
	Str
	List // [a, b] and (a, b)
	Set  // {a, b}
	Map  // {k: v}
)

// Value is a literal value of MBJP's example notation: JSON-like numbers,
// double- or single-quoted strings, true/false (also True/False), null
// (also None), [lists], (tuples, read as lists), {sets} and {k: v} maps.
type Value struct {
	Kind  Kind
	Text  string  // Bool, Int, Float: the literal; Str: the decoded string
	Items []Value // List, Set: the elements; Map: keys and values alternating
}

// Bounds on what ParseValue reads.
const (
	maxLiteral = 64 << 10
	maxDepth   = 32
)

// ParseValue parses one literal (surrounding blanks allowed).
func ParseValue(s string) (Value, error) {
	if len(s) > maxLiteral {
		return Value{}, fmt.Errorf("literal of %d bytes: too long", len(s))
	}
	p := &parser{s: s}
	v, err := p.value(0)
	if err != nil {
		return Value{}, err
	}
	p.blank()
	if p.i != len(p.s) {
		return Value{}, fmt.Errorf("unexpected %q after the value", p.rest())
	}
	return v, nil
}

// ParseArgs parses a comma-separated argument list (without parentheses).
func ParseArgs(s string) ([]Value, error) {
	if len(s) > maxLiteral {
		return nil, fmt.Errorf("arguments of %d bytes: too long", len(s))
	}
	p := &parser{s: s}
	p.blank()
	if p.i == len(p.s) {
		return nil, nil
	}
	var out []Value
	for {
		v, err := p.value(0)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.blank()
		if p.i == len(p.s) {
			return out, nil
		}
		if p.s[p.i] != ',' {
			return nil, fmt.Errorf("want ',' between arguments, got %q", p.rest())
		}
		p.i++
	}
}

type parser struct {
	s string
	i int
}

func (p *parser) rest() string {
	r := p.s[p.i:]
	if len(r) > 20 {
		r = r[:20] + "…"
	}
	return r
}

func (p *parser) blank() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

var errEnd = errors.New("unexpected end of the literal")

func (p *parser) value(depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, errors.New("literal nested too deeply")
	}
	p.blank()
	if p.i >= len(p.s) {
		return Value{}, errEnd
	}
	switch c := p.s[p.i]; {
	case c == '"' || c == '\'':
		return p.str(c)
	case c == '[':
		return p.seq(']', List, depth)
	case c == '(':
		return p.seq(')', List, depth)
	case c == '{':
		return p.brace(depth)
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		return p.number()
	default:
		return p.word()
	}
}

func (p *parser) word() (Value, error) {
	j := p.i
	for j < len(p.s) && (p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= 'A' && p.s[j] <= 'Z') {
		j++
	}
	w := p.s[p.i:j]
	switch w {
	case "true", "True":
		p.i = j
		return Value{Kind: Bool, Text: "true"}, nil
	case "false", "False":
		p.i = j
		return Value{Kind: Bool, Text: "false"}, nil
	case "null", "None":
		p.i = j
		return Value{Kind: Null}, nil
	}
	return Value{}, fmt.Errorf("unexpected %q", p.rest())
}

func (p *parser) number() (Value, error) {
	j := p.i
	if j < len(p.s) && (p.s[j] == '-' || p.s[j] == '+') {
		j++
	}
	start := j
	float := false
	for j < len(p.s) {
		c := p.s[j]
		switch {
		case c >= '0' && c <= '9':
		case c == '.' || c == 'e' || c == 'E':
			float = true
		case (c == '-' || c == '+') && (p.s[j-1] == 'e' || p.s[j-1] == 'E'):
		default:
			goto done
		}
		j++
	}
done:
	if j == start {
		return Value{}, fmt.Errorf("unexpected %q", p.rest())
	}
	text := strings.TrimPrefix(p.s[p.i:j], "+")
	if float {
		if _, err := strconv.ParseFloat(text, 64); err != nil {
			return Value{}, fmt.Errorf("number %q: %w", text, err)
		}
	} else if _, err := strconv.ParseInt(text, 10, 64); err != nil {
		return Value{}, fmt.Errorf("integer %q: out of range", text)
	}
	p.i = j
	if float {
		return Value{Kind: Float, Text: text}, nil
	}
	return Value{Kind: Int, Text: text}, nil
}

func (p *parser) str(q byte) (Value, error) {
	var b strings.Builder
	j := p.i + 1
	for j < len(p.s) {
		c := p.s[j]
		switch {
		case c == q:
			p.i = j + 1
			return Value{Kind: Str, Text: b.String()}, nil
		case c == '\\' && j+1 < len(p.s):
			j++
			switch e := p.s[j]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(e)
			}
			j++
		default:
			r, n := utf8.DecodeRuneInString(p.s[j:])
			b.WriteRune(r)
			j += n
		}
	}
	return Value{}, errors.New("unterminated string")
}

func (p *parser) seq(end byte, kind Kind, depth int) (Value, error) {
	return p.items(end, Value{Kind: kind}, depth, p.value)
}

// items reads the comma-separated items of v after its opening bracket, up
// to end, each with elem; a trailing comma is allowed.
func (p *parser) items(end byte, v Value, depth int, elem func(depth int) (Value, error)) (Value, error) {
	p.i++
	for {
		p.blank()
		if p.i >= len(p.s) {
			return Value{}, errEnd
		}
		if p.s[p.i] == end {
			p.i++
			return v, nil
		}
		item, err := elem(depth + 1)
		if err != nil {
			return Value{}, err
		}
		v.Items = append(v.Items, item)
		p.blank()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
		} else if p.i < len(p.s) && p.s[p.i] != end {
			return Value{}, fmt.Errorf("want ',' or %q, got %q", end, p.rest())
		}
	}
}

// brace reads {} (an empty map), {a, b} (a set) or {k: v} (a map).
func (p *parser) brace(depth int) (Value, error) {
	p.i++
	v := Value{Kind: Map}
	first := true
	for {
		p.blank()
		if p.i >= len(p.s) {
			return Value{}, errEnd
		}
		if p.s[p.i] == '}' {
			p.i++
			return v, nil
		}
		k, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		p.blank()
		colon := p.i < len(p.s) && p.s[p.i] == ':'
		if first {
			if !colon {
				v.Kind = Set
			}
			first = false
		}
		if colon != (v.Kind == Map) {
			return Value{}, errors.New("mixed set and map entries in {…}")
		}
		v.Items = append(v.Items, k)
		if colon {
			p.i++
			val, err := p.value(depth + 1)
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
