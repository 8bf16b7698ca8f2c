package verdict

import "github.com/bfcl-go/bfcl/internal/python/pyval"

// Python turns a Python value into a Detail value that the score-file
// writer serialises as upstream's make_json_serializable + json.dump do:
// dicts keep their order (Fields, keys as str()), lists and tuples become
// arrays, and values json.dumps cannot serialise become their str().
func Python(v pyval.Value) any {
	switch x := v.(type) {
	case nil, pyval.NoneType:
		return nil
	case pyval.Bool:
		return bool(x)
	case pyval.Int:
		return int64(x)
	case pyval.Float:
		return float64(x)
	case pyval.Str:
		return string(x)
	case *pyval.List:
		return pythonItems(x.Items)
	case pyval.Tuple:
		return pythonItems(x)
	case *pyval.Dict:
		out := make(Fields, 0, x.Len())
		for _, kv := range x.Items() {
			k, ok := kv.Key.(pyval.Str)
			key := string(k)
			if !ok {
				key = pyval.StrOf(kv.Key)
			}
			out = append(out, Field{Key: key, Value: Python(kv.Value)})
		}
		return out
	}
	return pyval.StrOf(v)
}

func pythonItems(items []pyval.Value) []any {
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = Python(it)
	}
	return out
}
