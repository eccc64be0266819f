package qe

import "testing"

func TestParseAlpha(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Alpha
		err  bool
	}{
		{"p", FSP, false},
		{"FS-PS", FSPS, false},
		{" s ", FSS, false},
		{"0.25", 0.25, false},
		{"1", 1, false},
		{"0", 0, false},
		{"1.5", 0, true},
		{"-0.1", 0, true},
		{"NaN", 0, true},
		{"nan", 0, true},
		{"inf", 0, true},
		{"0.5x", 0, true},
		{"", 0, true},
	} {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseAlpha(c.in)
			if (err != nil) != c.err || got != c.want {
				t.Errorf("ParseAlpha(%q) = %v, %v; want %v, error %v", c.in, got, err, c.want, c.err)
			}
		})
	}
}
