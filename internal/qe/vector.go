package qe

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
)

// Vector is an embedding: dense (Dense set) or sparse (Keys and Vals set,
// Keys sorted ascending and distinct). Vectors made by this package are unit
// length, so their dot product is their cosine; the zero Vector is the empty
// text's embedding and has cosine 0 with everything.
type Vector struct {
	Dense []float32
	Keys  []uint64
	Vals  []float32
}

// Cosine returns the cosine similarity of two unit vectors (their dot
// product). A dense and a sparse vector, or dense vectors of different
// lengths, have no common space: Cosine returns 0.
func Cosine(a, b Vector) float64 {
	if len(a.Dense) > 0 || len(b.Dense) > 0 {
		if len(a.Dense) != len(b.Dense) {
			return 0
		}
		var s float64
		for i, x := range a.Dense {
			s += float64(x) * float64(b.Dense[i])
		}
		return s
	}
	var s float64
	i, j := 0, 0
	for i < len(a.Keys) && j < len(b.Keys) {
		switch {
		case a.Keys[i] < b.Keys[j]:
			i++
		case a.Keys[i] > b.Keys[j]:
			j++
		default:
			s += float64(a.Vals[i]) * float64(b.Vals[j])
			i++
			j++
		}
	}
	return s
}

// NewDense returns the unit-length copy of x (the zero Vector if x is all 0).
func NewDense(x []float32) Vector {
	var n float64
	for _, v := range x {
		n += float64(v) * float64(v)
	}
	if n == 0 {
		return Vector{}
	}
	n = math.Sqrt(n)
	out := make([]float32, len(x))
	for i, v := range x {
		out[i] = float32(float64(v) / n)
	}
	return Vector{Dense: out}
}

// NewSparse returns the unit-length sparse vector with the given weights
// (zero weights dropped).
func NewSparse(w map[uint64]float64) Vector {
	keys := make([]uint64, 0, len(w))
	for k, v := range w {
		if v != 0 {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return Vector{}
	}
	// Sum in key order: map order would make the last bits, and so the
	// order of tied similarities, differ from run to run.
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	var n float64
	for _, k := range keys {
		n += w[k] * w[k]
	}
	n = math.Sqrt(n)
	vals := make([]float32, len(keys))
	for i, k := range keys {
		vals[i] = float32(w[k] / n)
	}
	return Vector{Keys: keys, Vals: vals}
}

const (
	vecKindZero   = 0
	vecKindDense  = 1
	vecKindSparse = 2
)

// MarshalBinary encodes the vector compactly (for the SQLite cache).
func (v Vector) MarshalBinary() ([]byte, error) {
	switch {
	case len(v.Dense) > 0:
		b := make([]byte, 0, 1+binary.MaxVarintLen64+4*len(v.Dense))
		b = append(b, vecKindDense)
		b = binary.AppendUvarint(b, uint64(len(v.Dense)))
		for _, x := range v.Dense {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
		return b, nil
	case len(v.Keys) > 0:
		if len(v.Keys) != len(v.Vals) {
			return nil, fmt.Errorf("sparse vector has %d keys and %d values", len(v.Keys), len(v.Vals))
		}
		b := make([]byte, 0, 1+binary.MaxVarintLen64+12*len(v.Keys))
		b = append(b, vecKindSparse)
		b = binary.AppendUvarint(b, uint64(len(v.Keys)))
		for i, k := range v.Keys {
			b = binary.LittleEndian.AppendUint64(b, k)
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v.Vals[i]))
		}
		return b, nil
	default:
		return []byte{vecKindZero}, nil
	}
}

var errBadVector = errors.New("corrupt vector encoding")

// UnmarshalBinary decodes a vector written by MarshalBinary.
func (v *Vector) UnmarshalBinary(b []byte) error {
	*v = Vector{}
	if len(b) == 0 {
		return errBadVector
	}
	kind := b[0]
	if kind == vecKindZero {
		return nil
	}
	n, k := binary.Uvarint(b[1:])
	if k <= 0 {
		return errBadVector
	}
	rest := b[1+k:]
	switch kind {
	case vecKindDense:
		if uint64(len(rest)) != 4*n {
			return errBadVector
		}
		v.Dense = make([]float32, n)
		for i := range v.Dense {
			v.Dense[i] = math.Float32frombits(binary.LittleEndian.Uint32(rest[4*i:]))
		}
	case vecKindSparse:
		if uint64(len(rest)) != 12*n {
			return errBadVector
		}
		v.Keys = make([]uint64, n)
		v.Vals = make([]float32, n)
		for i := range v.Keys {
			v.Keys[i] = binary.LittleEndian.Uint64(rest[12*i:])
			v.Vals[i] = math.Float32frombits(binary.LittleEndian.Uint32(rest[12*i+8:]))
		}
	default:
		return errBadVector
	}
	return nil
}
