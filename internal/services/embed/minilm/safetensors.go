package minilm

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
)

// SafeTensors is a parsed .safetensors file: an 8-byte little-endian header
// length, a JSON header naming each tensor's dtype, shape and byte range,
// then the tensor bytes. Only the dtypes F32, F16 and BF16 are read (as
// float32).
type SafeTensors struct {
	Path    string
	tensors map[string]TensorInfo
	data    []byte // the bytes after the header
	sha256  string
}

// TensorInfo is one header entry.
type TensorInfo struct {
	DType       string   `json:"dtype"`
	Shape       []int    `json:"shape"`
	DataOffsets [2]int64 `json:"data_offsets"`
}

// maxHeader bounds the JSON header (real ones are a few tens of KiB).
const maxHeader = 100 << 20

// openSized opens path and reports its size.
func openSized(path string) (*os.File, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, st.Size(), nil
}

// ReadSafeTensors reads and checks a whole .safetensors file, computing its
// SHA-256 on the way.
func ReadSafeTensors(path string) (*SafeTensors, error) {
	f, size, err := openSized(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	buf := make([]byte, size)
	if _, err := io.ReadFull(io.TeeReader(f, h), buf); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	// A file that grew while being read still hashes what was read.
	s, err := parseSafeTensors(path, buf)
	if err != nil {
		return nil, err
	}
	s.sha256 = hex.EncodeToString(h.Sum(nil))
	return s, nil
}

// ReadSafeTensorsHeader reads only the header of a .safetensors file (for
// checking names, shapes and dtypes without loading the weights).
func ReadSafeTensorsHeader(path string) (map[string]TensorInfo, error) {
	f, size, err := openSized(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lenBuf [8]byte
	if _, err := io.ReadFull(f, lenBuf[:]); err != nil {
		return nil, fmt.Errorf("%s: not a safetensors file (%d bytes)", path, size)
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n > maxHeader || int64(n) > size-8 {
		return nil, fmt.Errorf("%s: not a safetensors file (header length %d, file size %d)", path, n, size)
	}
	hdr := make([]byte, n)
	if _, err := io.ReadFull(f, hdr); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return parseHeader(path, hdr, size-8-int64(n))
}

func parseSafeTensors(path string, buf []byte) (*SafeTensors, error) {
	if len(buf) < 8 {
		return nil, fmt.Errorf("%s: not a safetensors file (%d bytes)", path, len(buf))
	}
	n := binary.LittleEndian.Uint64(buf)
	if n > maxHeader || n > uint64(len(buf)-8) {
		return nil, fmt.Errorf("%s: not a safetensors file (header length %d, file size %d)", path, n, len(buf))
	}
	data := buf[8+n:]
	tensors, err := parseHeader(path, buf[8:8+n], int64(len(data)))
	if err != nil {
		return nil, err
	}
	return &SafeTensors{Path: path, tensors: tensors, data: data}, nil
}

func parseHeader(path string, hdr []byte, dataLen int64) (map[string]TensorInfo, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(hdr, &raw); err != nil {
		return nil, fmt.Errorf("%s: bad safetensors header: %w", path, err)
	}
	tensors := make(map[string]TensorInfo, len(raw))
	for name, msg := range raw {
		if name == "__metadata__" {
			continue
		}
		var ti TensorInfo
		if err := json.Unmarshal(msg, &ti); err != nil {
			return nil, fmt.Errorf("%s: bad safetensors header entry %q: %w", path, name, err)
		}
		b, e := ti.DataOffsets[0], ti.DataOffsets[1]
		if b < 0 || e < b || e > dataLen {
			return nil, fmt.Errorf("%s: tensor %q has byte range [%d, %d) outside the %d data bytes", path, name, b, e, dataLen)
		}
		if size := dtypeSize(ti.DType); size > 0 {
			numel := int64(1)
			for _, d := range ti.Shape {
				if d < 0 {
					return nil, fmt.Errorf("%s: tensor %q has shape %v", path, name, ti.Shape)
				}
				numel *= int64(d)
			}
			if numel*size != e-b {
				return nil, fmt.Errorf("%s: tensor %q (%s %v) has %d bytes, want %d", path, name, ti.DType, ti.Shape, e-b, numel*size)
			}
		}
		tensors[name] = ti
	}
	return tensors, nil
}

func dtypeSize(dt string) int64 {
	switch dt {
	case "F32":
		return 4
	case "F16", "BF16":
		return 2
	}
	return 0
}

// SHA256 is the hex SHA-256 of the whole file.
func (s *SafeTensors) SHA256() string { return s.sha256 }

// Names lists the tensor names, sorted.
func (s *SafeTensors) Names() []string { return slices.Sorted(maps.Keys(s.tensors)) }

// Info returns a tensor's header entry.
func (s *SafeTensors) Info(name string) (TensorInfo, bool) {
	ti, ok := s.tensors[name]
	return ti, ok
}

// lookupTensor finds name in tensors, also under the "bert." prefix that
// BertForX checkpoints use (or without it).
func lookupTensor(tensors map[string]TensorInfo, name string) (string, TensorInfo, bool) {
	for _, n := range []string{name, "bert." + name, strings.TrimPrefix(name, "bert.")} {
		if ti, ok := tensors[n]; ok {
			return n, ti, true
		}
	}
	return "", TensorInfo{}, false
}

// checkTensor checks that name exists with the wanted shape and a float
// dtype this package reads; it returns the stored name.
func checkTensor(path string, tensors map[string]TensorInfo, name string, shape ...int) (string, TensorInfo, error) {
	stored, ti, ok := lookupTensor(tensors, name)
	if !ok {
		return "", ti, fmt.Errorf("%s has no tensor %q (nor bert.%s)", path, name, name)
	}
	if dtypeSize(ti.DType) == 0 {
		return "", ti, fmt.Errorf("%s: tensor %q has dtype %s, want F32 (or F16/BF16)", path, stored, ti.DType)
	}
	if !equalShape(ti.Shape, shape) {
		return "", ti, fmt.Errorf("%s: tensor %q has shape %v, want %v (does config.json match the weights?)", path, stored, ti.Shape, shape)
	}
	return stored, ti, nil
}

func equalShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Float32s returns tensor name (with or without a "bert." prefix) as
// float32 values in row-major order, after checking its shape.
func (s *SafeTensors) Float32s(name string, shape ...int) ([]float32, error) {
	_, ti, err := checkTensor(s.Path, s.tensors, name, shape...)
	if err != nil {
		return nil, err
	}
	raw := s.data[ti.DataOffsets[0]:ti.DataOffsets[1]]
	var out []float32
	switch ti.DType {
	case "F32":
		out = make([]float32, len(raw)/4)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
	case "F16":
		out = make([]float32, len(raw)/2)
		for i := range out {
			out[i] = halfToFloat32(binary.LittleEndian.Uint16(raw[2*i:]))
		}
	case "BF16":
		out = make([]float32, len(raw)/2)
		for i := range out {
			out[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(raw[2*i:])) << 16)
		}
	}
	return out, nil
}

// halfToFloat32 converts an IEEE 754 binary16 value exactly.
func halfToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // Inf, NaN
		return math.Float32frombits(sign | 0xff<<23 | mant<<13)
	case exp != 0: // normal
		return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
	case mant == 0: // ±0
		return math.Float32frombits(sign)
	}
	// Subnormal: mant · 2^-24.
	f := float32(mant) * (1.0 / (1 << 24))
	if sign != 0 {
		f = -f
	}
	return f
}
