package java

import (
	"errors"
	"strings"
)

// Show renders v, a value of type t, for people to read, the way Java's
// toString writes collections: arrays, lists and sets as [1, 2], maps as
// {k=v}; numbers without casts, suffixes or parentheses (-5, 2.5),
// strings and characters quoted as Java literals. ReadValue reads it back
// as the same value, and Emit then writes it as an expression of t. It
// fails where Emit would.
func Show(v Value, t Type) (string, error) {
	if _, err := Emit(v, t); err != nil {
		return "", err
	}
	var b strings.Builder
	if err := show(&b, v, t, 0); err != nil {
		return "", err
	}
	return b.String(), nil
}

func show(b *strings.Builder, v Value, t Type, depth int) error {
	if depth > maxDepth {
		return errors.New("value nested too deeply")
	}
	if v.Kind == Null {
		b.WriteString("null")
		return nil
	}
	if t.Array > 0 {
		elem := t
		elem.Array--
		return showSeq(b, v.Items, elem, depth)
	}
	switch t.Name {
	case "double", "Double", "float", "Float":
		b.WriteString(v.Text)
		if v.Kind == Int {
			b.WriteString(".0")
		}
	case "char", "Character":
		b.WriteString(quote(v.Text, '\''))
	case "String", "CharSequence":
		b.WriteString(quote(v.Text, '"'))
	case "List", "ArrayList", "LinkedList", "Collection", "Iterable", "Deque", "Queue", "ArrayDeque",
		"Set", "HashSet", "TreeSet", "LinkedHashSet":
		return showSeq(b, v.Items, boxed(t.elem(0)), depth)
	case "Map", "HashMap", "TreeMap", "LinkedHashMap":
		b.WriteByte('{')
		for i := 0; i+1 < len(v.Items); i += 2 {
			if i > 0 {
				b.WriteString(", ")
			}
			if err := show(b, v.Items[i], t.elem(0), depth+1); err != nil {
				return err
			}
			b.WriteByte('=')
			if err := show(b, v.Items[i+1], t.elem(1), depth+1); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case "Object", "Number", "Comparable", "Serializable":
		return show(b, v, inferred(v, t.Name == "Number"), depth)
	default: // integers and booleans
		b.WriteString(v.Text)
	}
	return nil
}

// showSeq writes items of type elem as [a, b].
func showSeq(b *strings.Builder, items []Value, elem Type, depth int) error {
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		if err := show(b, it, elem, depth+1); err != nil {
			return err
		}
	}
	b.WriteByte(']')
	return nil
}
