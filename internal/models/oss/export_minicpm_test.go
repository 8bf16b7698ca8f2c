package oss

import "github.com/bfcl-go/bfcl/internal/python/pyval"

// MiniCPMFunctionListing is transform_function for one function document
// as the dataset hands it (converted with convert_to_tool first), and the
// JSON (json.dumps) of the converted document, for the specs.
func MiniCPMFunctionListing(doc pyval.Value) (listing, converted string, err error) {
	tools, err := convertToTool([]pyval.Value{doc}, false)
	if err != nil {
		return "", "", err
	}
	if converted, err = dumps(tools[0]); err != nil {
		return "", "", err
	}
	listing, err = miniCPMTransformFunction(tools[0])
	return listing, converted, err
}

// InflectSingular is inflect's singular_noun as datamodel-code-generator
// uses it ("" for False).
var InflectSingular = inflectSingular

// MiniCPMTransformFunction is transform_function for a document already
// converted by convert_to_tool.
var MiniCPMTransformFunction = miniCPMTransformFunction
