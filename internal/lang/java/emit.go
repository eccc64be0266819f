package java

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Type is a Java type as a signature writes it: a name, type arguments and
// array dimensions (int[][] is {int, nil, 2}).
type Type struct {
	Name  string
	Args  []Type
	Array int
}

// String renders the type as Java source.
func (t Type) String() string {
	var b strings.Builder
	b.WriteString(t.Name)
	if len(t.Args) > 0 {
		b.WriteByte('<')
		for i, a := range t.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(a.String())
		}
		b.WriteByte('>')
	}
	for i := 0; i < t.Array; i++ {
		b.WriteString("[]")
	}
	return b.String()
}

// ParseType parses a type such as List<List<Integer>>, int[] or
// HashMap<String, Integer>. Wildcards are read as Object.
func ParseType(s string) (Type, error) {
	t, rest, err := parseType(strings.TrimSpace(s), 0)
	if err != nil {
		return Type{}, err
	}
	if strings.TrimSpace(rest) != "" {
		return Type{}, fmt.Errorf("type %q: unexpected %q", s, rest)
	}
	return t, nil
}

func parseType(s string, depth int) (Type, string, error) {
	if depth > maxDepth {
		return Type{}, "", errors.New("type nested too deeply")
	}
	s = strings.TrimLeft(s, " \t\n")
	j := 0
	for j < len(s) && (isIdent(s[j]) || s[j] == '.' || s[j] == '?') {
		j++
	}
	if j == 0 {
		return Type{}, "", fmt.Errorf("want a type name at %q", s)
	}
	t := Type{Name: s[:j]}
	if t.Name == "?" || strings.HasPrefix(s[j:], " extends") || strings.HasPrefix(s[j:], " super") {
		// ? extends T and the like: Object is what a value can be.
		k := j
		for k < len(s) && s[k] != ',' && s[k] != '>' {
			k++
		}
		return Type{Name: "Object"}, s[k:], nil
	}
	if i := strings.LastIndexByte(t.Name, '.'); i >= 0 {
		t.Name = t.Name[i+1:] // java.util.List is List
	}
	s = strings.TrimLeft(s[j:], " \t\n")
	if strings.HasPrefix(s, "<") {
		s = s[1:]
		for {
			a, rest, err := parseType(s, depth+1)
			if err != nil {
				return Type{}, "", err
			}
			t.Args = append(t.Args, a)
			rest = strings.TrimLeft(rest, " \t\n")
			if strings.HasPrefix(rest, ",") {
				s = rest[1:]
				continue
			}
			if !strings.HasPrefix(rest, ">") {
				return Type{}, "", fmt.Errorf("want ',' or '>' at %q", rest)
			}
			s = rest[1:]
			break
		}
	}
	for {
		s = strings.TrimLeft(s, " \t\n")
		switch {
		case strings.HasPrefix(s, "[]"):
			t.Array++
			s = s[2:]
		case strings.HasPrefix(s, "..."):
			t.Array++
			s = s[3:]
		default:
			return t, s, nil
		}
	}
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (t Type) elem(i int) Type {
	if i < len(t.Args) {
		return t.Args[i]
	}
	return Type{Name: "Object"}
}

// Emit renders v as a Java expression of type t (Object: inferred from the
// value). It fails when v cannot be a value of t.
func Emit(v Value, t Type) (string, error) {
	var b strings.Builder
	if err := emit(&b, v, t, 0); err != nil {
		return "", err
	}
	return b.String(), nil
}

// emit writes v as a Java expression of type t; depth bounds the nesting.
func emit(b *strings.Builder, v Value, t Type, depth int) error {
	if depth > maxDepth {
		return errors.New("value nested too deeply")
	}
	if v.Kind == Null {
		if t.Array == 0 && primitive(t.Name) {
			return fmt.Errorf("null for %s", t.Name)
		}
		b.WriteString("null")
		return nil
	}
	if t.Array > 0 {
		return emitArray(b, v, t, depth)
	}
	switch t.Name {
	case "int", "Integer", "short", "Short", "byte", "Byte", "long", "Long",
		"double", "Double", "float", "Float", "boolean", "Boolean",
		"char", "Character", "String", "CharSequence":
		return emitScalar(b, v, t)
	case "List", "ArrayList", "LinkedList", "Collection", "Iterable", "Deque", "Queue", "ArrayDeque":
		if v.Kind != List && v.Kind != Set {
			return kindMismatch(v, t)
		}
		return emitList(b, v, t, depth)
	case "Set", "HashSet", "TreeSet", "LinkedHashSet":
		return emitSet(b, v, t, depth)
	case "Map", "HashMap", "TreeMap", "LinkedHashMap":
		return emitMap(b, v, t, depth)
	case "Object", "Number", "Comparable", "Serializable":
		return emit(b, v, inferred(v, t.Name == "Number"), depth)
	default:
		return fmt.Errorf("type %s is not supported", t)
	}
}

// emitArray writes an array creation expression, new T[] {...}, for a
// list.
func emitArray(b *strings.Builder, v Value, t Type, depth int) error {
	if v.Kind != List {
		return fmt.Errorf("%v for an array", kindName(v.Kind))
	}
	elem := t
	elem.Array--
	b.WriteString("new " + t.String() + " {")
	for i, it := range v.Items {
		if i > 0 {
			b.WriteString(", ")
		}
		if err := emit(b, it, elem, depth+1); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// emitScalar writes a literal of a primitive type, its wrapper class or a
// string type (t, not an array); negative numbers are parenthesized.
func emitScalar(b *strings.Builder, v Value, t Type) error {
	switch t.Name {
	case "int", "Integer", "short", "Short", "byte", "Byte":
		if v.Kind != Int {
			return kindMismatch(v, t)
		}
		if _, err := strconv.ParseInt(v.Text, 10, 32); err != nil {
			return fmt.Errorf("%s does not fit %s", v.Text, t.Name)
		}
		switch t.Name {
		case "short", "Short":
			b.WriteString("(short) ")
		case "byte", "Byte":
			b.WriteString("(byte) ")
		}
		b.WriteString(paren(v.Text))
	case "long", "Long":
		if v.Kind != Int {
			return kindMismatch(v, t)
		}
		b.WriteString(paren(v.Text + "L"))
	case "double", "Double", "float", "Float":
		if v.Kind != Int && v.Kind != Float {
			return kindMismatch(v, t)
		}
		text := v.Text
		if v.Kind == Int {
			text += ".0"
		}
		if t.Name == "float" || t.Name == "Float" {
			text += "f"
		}
		b.WriteString(paren(text))
	case "boolean", "Boolean":
		if v.Kind != Bool {
			return kindMismatch(v, t)
		}
		b.WriteString(v.Text)
	case "char", "Character":
		if v.Kind != Str || len([]rune(v.Text)) != 1 {
			return kindMismatch(v, t)
		}
		b.WriteString(quote(v.Text, '\''))
	default: // String, CharSequence
		if v.Kind != Str {
			return kindMismatch(v, t)
		}
		b.WriteString(quote(v.Text, '"'))
	}
	return nil
}

// kindMismatch is the error of a value of the wrong kind for t.
func kindMismatch(v Value, t Type) error {
	return fmt.Errorf("%v for %s", kindName(v.Kind), t.Name)
}

// emitSet writes new HashSet<E>(Arrays.asList(...)) (or the TreeSet or
// LinkedHashSet t names) for a set, a list or an empty map.
func emitSet(b *strings.Builder, v Value, t Type, depth int) error {
	if v.Kind != Set && v.Kind != List && !(v.Kind == Map && len(v.Items) == 0) {
		return kindMismatch(v, t)
	}
	impl := map[string]string{"Set": "HashSet", "HashSet": "HashSet", "TreeSet": "TreeSet", "LinkedHashSet": "LinkedHashSet"}[t.Name]
	b.WriteString("new " + impl + "<" + t.elem(0).String() + ">(")
	if err := emitList(b, Value{Kind: List, Items: v.Items}, Type{Name: "List", Args: []Type{t.elem(0)}}, depth); err != nil {
		return err
	}
	b.WriteByte(')')
	return nil
}

// emitMap writes a map (or an empty list, as {} is read) as an anonymous
// subclass of the map class t names (HashMap for Map) that puts each
// entry in its initializer.
func emitMap(b *strings.Builder, v Value, t Type, depth int) error {
	if v.Kind != Map && !(v.Kind == List && len(v.Items) == 0) { // {} is read as a list
		return kindMismatch(v, t)
	}
	impl := t.Name
	if impl == "Map" {
		impl = "HashMap"
	}
	k, val := t.elem(0), t.elem(1)
	b.WriteString("new " + impl + "<" + k.String() + ", " + val.String() + ">() {{ ")
	for i := 0; i+1 < len(v.Items); i += 2 {
		b.WriteString("put(")
		if err := emit(b, v.Items[i], k, depth+1); err != nil {
			return err
		}
		b.WriteString(", ")
		if err := emit(b, v.Items[i+1], val, depth+1); err != nil {
			return err
		}
		b.WriteString("); ")
	}
	b.WriteString("}}")
	return nil
}

// emitList writes Arrays.<T>asList(...), in a new ArrayList where the type
// names a class.
func emitList(b *strings.Builder, v Value, t Type, depth int) error {
	elem := t.elem(0)
	wrap := t.Name == "ArrayList" || t.Name == "LinkedList" || t.Name == "ArrayDeque"
	if wrap {
		b.WriteString("new " + t.Name + "<" + elem.String() + ">(")
	}
	b.WriteString("Arrays.<" + boxed(elem).String() + ">asList(")
	for i, it := range v.Items {
		if i > 0 {
			b.WriteString(", ")
		}
		if err := emit(b, it, boxed(elem), depth+1); err != nil {
			return err
		}
	}
	b.WriteByte(')')
	if wrap {
		b.WriteByte(')')
	}
	return nil
}

// inferred is the type a value of an Object (or Number) slot gets.
func inferred(v Value, number bool) Type {
	switch v.Kind {
	case Bool:
		return Type{Name: "Boolean"}
	case Int:
		if _, err := strconv.ParseInt(v.Text, 10, 32); err != nil {
			return Type{Name: "Long"}
		}
		return Type{Name: "Integer"}
	case Float:
		return Type{Name: "Double"}
	case Str:
		return Type{Name: "String"}
	case Set:
		return Type{Name: "HashSet", Args: []Type{{Name: "Object"}}}
	case Map:
		return Type{Name: "HashMap", Args: []Type{{Name: "Object"}, {Name: "Object"}}}
	default:
		return Type{Name: "List", Args: []Type{{Name: "Object"}}}
	}
}

func primitive(name string) bool {
	switch name {
	case "int", "long", "short", "byte", "double", "float", "boolean", "char":
		return true
	}
	return false
}

// boxed returns the wrapper class of a primitive type.
func boxed(t Type) Type {
	if t.Array > 0 {
		return t
	}
	names := map[string]string{"int": "Integer", "long": "Long", "short": "Short", "byte": "Byte",
		"double": "Double", "float": "Float", "boolean": "Boolean", "char": "Character"}
	if n, ok := names[t.Name]; ok {
		return Type{Name: n}
	}
	return t
}

func paren(text string) string {
	if strings.HasPrefix(text, "-") {
		return "(" + text + ")"
	}
	return text
}

func kindName(k Kind) string {
	return [...]string{"null", "a boolean", "an integer", "a number", "a string", "a list", "a set", "a map"}[k]
}

// quote writes s as a Java string or char literal.
func quote(s string, q byte) string {
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			// Octal, not \uXXXX: javac turns unicode escapes into
			// characters before it reads the literal.
			fmt.Fprintf(&b, `\%o`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}
