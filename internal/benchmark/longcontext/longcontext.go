// Package longcontext holds the module-level values of upstream's
// long_context.py (bfcl_eval/eval_checker/multi_turn_eval/func_source_code/),
// the distractor data the multi-turn backends inject in long-context mode.
//
// The file is read with the project's Python parser (pyexpr): every
// top-level assignment is literal-evaluated (ast.literal_eval semantics)
// into a pyval value. Upstream
// mutates some of these values in place (TravelAPI shares the
// CREDIT_CARD_EXTENSION card dicts with its state, VehicleControlAPI writes
// into LONG_WEATHER_EXTENSION), so each entry evaluation works on its own
// Clone of the parsed data.
package longcontext

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bfcl-go/bfcl/internal/python/pyexpr"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Names of the module-level values, as upstream spells them.
const (
	WatchListExtension          = "WATCH_LIST_EXTENSION"
	TransactionHistoryExtension = "TRANSACTION_HISTORY_EXTENSION"
	MA5Extension                = "MA_5_EXTENSION"
	MA20Extension               = "MA_20_EXTENSION"
	TechnologyExtension         = "TECHNOLOGY_EXTENSION"
	AutomobileExtension         = "AUTOMOBILE_EXTENSION"
	OrderDetailExtension        = "ORDER_DETAIL_EXTENSION"
	FileContentExtension        = "FILE_CONTENT_EXTENSION"
	PopulateFileExtension       = "POPULATE_FILE_EXTENSION"
	CarStatusMetadataExtension  = "CAR_STATUS_METADATA_EXTENSION"
	LongWeatherExtension        = "LONG_WEATHER_EXTENSION"
	ParkingBrakeInstruction     = "PARKING_BRAKE_INSTRUCTION"
	IntermediaryCities          = "INTERMEDIARY_CITIES"
	CreditCardExtension         = "CREDIT_CARD_EXTENSION"
	BookingRecordExtension      = "BOOKING_RECORD_EXTENSION"
	FilesTailUsed               = "FILES_TAIL_USED"
)

// RequiredNames lists every name the backends import from long_context.py;
// Parse fails when one is missing.
func RequiredNames() []string {
	return []string{
		WatchListExtension, TransactionHistoryExtension, MA5Extension, MA20Extension,
		TechnologyExtension, AutomobileExtension, OrderDetailExtension, FileContentExtension,
		PopulateFileExtension, CarStatusMetadataExtension, LongWeatherExtension,
		ParkingBrakeInstruction, IntermediaryCities, CreditCardExtension,
		BookingRecordExtension, FilesTailUsed,
	}
}

// FileName is the module's file name.
const FileName = "long_context.py"

// upstreamRel is where the module lives inside an upstream checkout
// (berkeley-function-call-leaderboard/).
const upstreamRel = "bfcl_eval/eval_checker/multi_turn_eval/func_source_code/" + FileName

// Data is one copy of the module's values.
type Data struct {
	names []string // in file order
	vals  map[string]pyval.Value
	// from is the Data this one is a Clone of: a name not yet in vals is
	// deep-copied from it on first Get.
	from *Data
}

// Parse reads long_context.py's source: every top-level assignment is
// literal-evaluated. A later assignment to the same name replaces the earlier
// value (as executing the module would). All RequiredNames must be present.
func Parse(src []byte) (*Data, error) {
	assigns, err := pyexpr.ParseModule(string(src))
	if err != nil {
		return nil, fmt.Errorf("longcontext: parsing %s: %w", FileName, err)
	}
	d := &Data{vals: make(map[string]pyval.Value, len(assigns))}
	for _, a := range assigns {
		v, err := pyexpr.LiteralEval(a.Value)
		if err != nil {
			return nil, fmt.Errorf("longcontext: %s line %d: value of %s: %w", FileName, a.Line, a.Name, err)
		}
		if _, dup := d.vals[a.Name]; !dup {
			d.names = append(d.names, a.Name)
		}
		d.vals[a.Name] = v
	}
	var missing []string
	for _, n := range RequiredNames() {
		if _, ok := d.vals[n]; !ok {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("longcontext: %s does not define %v", FileName, missing)
	}
	return d, nil
}

// Load reads and parses long_context.py from dir, which is either the BFCL
// data folder (holding long_context.py) or an upstream checkout (the
// berkeley-function-call-leaderboard folder, or the folder above it).
func Load(dir string) (*Data, error) {
	candidates := []string{
		filepath.Join(dir, FileName),
		filepath.Join(dir, filepath.FromSlash(upstreamRel)),
		filepath.Join(dir, "berkeley-function-call-leaderboard", filepath.FromSlash(upstreamRel)),
	}
	for _, p := range candidates {
		src, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("longcontext: %w", err)
		}
		d, err := Parse(src)
		if err != nil {
			return nil, fmt.Errorf("%w (file %s)", err, p)
		}
		return d, nil
	}
	return nil, fmt.Errorf("longcontext: %s not found in %s (looked at %v)", FileName, dir, candidates)
}

// Get returns the value bound to name (not a copy: upstream's code mutates
// these objects in place and the backends must do the same). It panics for a
// name long_context.py does not define: the names are fixed by upstream, so
// an unknown one is a programming error. A Data is used by one goroutine
// at a time (the Data it was cloned from, by any number).
func (d *Data) Get(name string) pyval.Value {
	if v, ok := d.vals[name]; ok {
		return v
	}
	if d.from != nil && d.from.Has(name) {
		v := pyval.DeepCopy(d.from.Get(name))
		d.vals[name] = v
		return v
	}
	panic(fmt.Sprintf("longcontext: %s defines no name %q", FileName, name))
}

// Has reports whether name is defined.
func (d *Data) Has(name string) bool {
	if _, ok := d.vals[name]; ok {
		return true
	}
	return d.from != nil && d.from.Has(name)
}

// Names returns the defined names in file order.
func (d *Data) Names() []string { return append([]string(nil), d.names...) }

// Clone returns a deep copy (copy.deepcopy of the module namespace): nothing
// mutated through the copy is visible in d. Each name is copied on its first
// Get, so an evaluation pays only for the values its backends read: the
// module's values are literals (Parse literal-evaluates each assignment),
// so no object is shared between two names and copying them one by one
// is copying the namespace.
func (d *Data) Clone() *Data {
	root := d
	if d.from != nil {
		root = d.from // a clone's own values are copied below, as they are now
	}
	c := &Data{names: d.names, vals: make(map[string]pyval.Value, max(len(d.vals), 4)), from: root}
	if root != d {
		for n, v := range d.vals {
			c.vals[n] = pyval.DeepCopy(v)
		}
	}
	return c
}
