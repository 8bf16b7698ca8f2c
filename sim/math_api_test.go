package sim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// mathPythonCases were produced by running upstream's logarithm and
// square_root bodies under CPython (decimal module) and mpmath:
// kind, arguments (Python reprs), expected str() of the returned dict (or
// "EXC <Type>: <message>" when the statement raised outside the try).
const mathPythonCases = `L	20	10	2	{'result': mpf('1.3027')}
L	36.0	6.0	4	{'result': mpf('2.0')}
L	3287.0	6.0	4	{'result': mpf('4.51947')}
L	630.0	10	5	{'result': mpf('2.7993393')}
L	980.0	20	10	{'result': mpf('2.299121531134')}
L	8	2	15	{'result': mpf('3.0')}
L	1000	10	3	{'result': mpf('3.0')}
L	2	10	50	{'result': mpf('0.30102999566398119521373889472449302676818988146210811')}
L	0.001	10	7	{'result': mpf('-3.0')}
L	1e-300	10	20	{'result': mpf('-299.99999999999999998916')}
L	10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000	7	30	{'result': mpf('473.317864981975330727171424658726')}
L	12345.678	2.5	100	{'result': mpf('10.2817380920379500543608065958509577710099227218212572927142629494837210553798530678766506601840551178')}
L	1	10	5	{'result': mpf('0.0')}
L	0	10	5	{'result': mpf('-inf')}
L	10	1	5	{'error': ''}
L	-5	10	4	{'result': mpc(real='0.698967', imag='1.36438')}
L	5	-10	4	{'result': mpc(real='0.2442646', imag='-0.3332672')}
L	-5	-10	6	{'result': mpc(real='0.894800782', imag='0.143531352')}
L	'20'	10	4	{'result': mpf('1.301025')}
L	7	3	1	{'result': mpf('1.781')}
L	7	3	0	{'result': mpf('2.0')}
L	7	3	-3	{'result': mpf('2.0')}
L	7	3	4.7	{'result': mpf('1.77124')}
L	7	3	'6'	{'result': mpf('1.77124381')}
L	7	3	'x'	{'error': "invalid literal for int() with base 10: 'x'"}
L	7	3	None	{'error': "int() argument must be a string, a bytes-like object or a real number, not 'NoneType'"}
L	2.5	1.5	300	{'result': mpf('2.25985100456466325065977888121367735472816211262120592923269549215082189241368917376774831450952156286413552834534193631101216830829855300680423471051831623138766045112707998865137274890422855648281059372391397690488451816508266256655163376519006522202857055995891818258534653858582061838485563177070707')}
L	100	10	2	{'result': mpf('2.0')}
L	1e+16	10	3	{'result': mpf('16.0')}
L	1180591620717411303424	2	10	{'result': mpf('70.0')}
L	3	9	25	{'result': mpf('0.5')}
L	0.5	0.25	9	{'result': mpf('0.5')}
L	0.0003238327648331624	2	24	{'result': mpf('-11.5924634171612640534095131')}
L	582.7880059033552	3	5	{'result': mpf('5.7962418')}
L	240.66300012702501	2	15	{'result': mpf('7.9108705466416964')}
L	6306.259157317371	3	4	{'result': mpf('7.963867')}
L	9.7625510559292e-06	10	35	{'result': mpf('-5.010436681847002852432078510347837766')}
L	0.011779223807836837	10	24	{'result': mpf('-1.92888332644871229752273803')}
L	97430.57599473337	3	35	{'result': mpf('10.455822750909368048752478903514311411')}
L	488220	10	12	{'result': mpf('5.68861556637967')}
L	85833	27.269825190572572	29	{'result': mpf('3.4364525540377993651035557414946')}
L	123802	9.25810518217866	10	{'result': mpf('5.269126908912')}
L	9.332702121806376	39.23854331064065	22	{'result': mpf('0.6086462742517169994880474')}
L	520803	2	18	{'result': mpf('18.9903782333717293003')}
L	47409.833741964445	37.56796673204452	37	{'result': mpf('2.969149038710269806638790826651827534346')}
L	467290	36.84138971991518	2	{'result': mpf('3.6211')}
L	0.9406485666460938	10	19	{'result': mpf('-0.02657260194345079940546')}
L	417227	3	6	{'result': mpf('11.7797565')}
L	576131	3	36	{'result': mpf('12.0734953369725611427307856097577127449')}
L	376200	10	6	{'result': mpf('5.57541847')}
L	0.0017621772849037032	10	17	{'result': mpf('-2.7539504012688819853')}
L	439299	31.500621762849846	9	{'result': mpf('3.76606032485')}
L	690.4936571359779	3	26	{'result': mpf('5.9506040978593126942448684706')}
L	504915	2	14	{'result': mpf('18.9456810120044')}
L	4.4062686832475056e-05	10	35	{'result': mpf('-4.3559290241861502881481446326291796905')}
L	0.10146436802259651	10	40	{'result': mpf('-0.9936864453176785015320905792179732589547558')}
L	264513	3	8	{'result': mpf('11.364924476')}
L	488627	2	10	{'result': mpf('18.89837405924')}
L	776316	10	34	{'result': mpf('5.890038537136111622262973185545822224')}
L	23.09572104524815	2	34	{'result': mpf('4.529553682519013920799728278240072258')}
L	29808.969034627997	35.81983929539009	34	{'result': mpf('2.879016096718309439279192555894417648')}
L	0.00036669979176117887	27.63961987464395	15	{'result': mpf('-2.383359633732284')}
L	6132282.22813541	3	15	{'result': mpf('14.22619945597444')}
L	19.991798339514965	50.4901793351535	31	{'result': mpf('0.7637661943560431902920636752157324')}
L	634536	23.371383888336172	24	{'result': mpf('4.23944054858986945531218115')}
L	237867	10	31	{'result': mpf('5.376334195244505116498347527751617')}
L	6240.6639743781825	24.98367131307691	6	{'result': mpf('2.71542501')}
L	953972	10	31	{'result': mpf('5.979535627928467208938382517745752')}
L	827470	3	30	{'result': mpf('12.4030363326075842687199466310889')}
L	4.013868178677015e-05	10	2	{'result': mpf('-4.3984')}
L	15.115070038148982	3	23	{'result': mpf('2.471929624233530733000842')}
L	155.91242573156984	2	34	{'result': mpf('7.284592100664506239720450923268844858')}
L	0.0007494962284984053	10	2	{'result': mpf('-3.1289')}
L	0.025183481136545383	39.193989221765534	17	{'result': mpf('-1.0035555479909173595')}
L	54435276.552299075	46.510852815777824	30	{'result': mpf('4.63905758327131536330799037389437')}
L	948225	10	35	{'result': mpf('5.9769114013298254913689980291266016542')}
L	19615	2	10	{'result': mpf('14.25966971507')}
L	17.23467122134489	28.833781245110664	34	{'result': mpf('0.8469084516425668929555878498574943785')}
L	53.072635498227086	2	16	{'result': mpf('5.729896287236192265')}
L	1.913061311611315e-06	2	5	{'result': mpf('-18.995697')}
L	4432.483935774389	3	33	{'result': mpf('7.64301974441837365757880292481683625')}
L	53.32854375791709	35.97089410901429	36	{'result': mpf('1.10990607415566152194633066394289488196')}
L	880805	2	26	{'result': mpf('19.748463133001593997141549387')}
L	4.421180882750436e-05	10	20	{'result': mpf('-4.3544617165409967124266')}
L	161951	10	30	{'result': mpf('5.20938363399572385243798461879773')}
L	417604	10	11	{'result': mpf('5.6207646498806')}
L	423427	22.07382369836594	21	{'result': mpf('4.18697258961403021644389')}
L	20431	3	2	{'result': mpf('9.0469')}
L	654236	2	8	{'result': mpf('19.3194516')}
L	9850832.441340992	5.21306334851841	3	{'result': mpf('9.75195')}
L	0.0009058986885770963	41.99886341685585	26	{'result': mpf('-1.8745995571227826656011741366')}
L	598314	2	18	{'result': mpf('19.1905432955681834115')}
S	23.555	10	{'result': Decimal('4.853349359')}
S	16	28	{'result': Decimal('4')}
S	4.0	5	{'result': Decimal('2')}
S	0.25	3	{'result': Decimal('0.5')}
S	10000000000.0	10	{'result': Decimal('100000')}
S	1e-10	10	{'result': Decimal('0.00001000000000')}
S	0.0	5	{'result': Decimal('0')}
S	-0.0	5	{'result': Decimal('-0')}
S	2	10	{'result': Decimal('1.414213562')}
S	100	28	{'result': Decimal('10')}
S	1e+22	10	{'result': Decimal('1.000000000E+11')}
S	12345678901234567890	10	{'result': Decimal('3513641829')}
S	0.1	10	{'result': Decimal('0.3162277660')}
S	2	1	{'result': Decimal('1')}
S	99	2	{'result': Decimal('9.9')}
S	0.0001	50	{'result': Decimal('0.010000000000000000239608680119296477045031089566690')}
S	3.0	0	EXC ValueError: valid range for prec is [1, MAX_PREC]
S	3	True	{'result': Decimal('2')}
S	3	2.5	EXC TypeError: an integer is required
S	7	200	{'result': Decimal('2.6457513110645905905016157536392604257102591830824501803683344592010688232302836277603928864745436106150645783384974630957435298886272147844273905558801077227171507297283238922996895948650872607009781')}
S	1e+300	12	{'result': Decimal('1.00000000000E+150')}
S	5e-324	20	{'result': Decimal('2.2227587494850774834E-162')}
S	9.99	3	{'result': Decimal('3.16')}
S	5.752651244094631e-05	18	{'result': Decimal('0.00758462342116906351')}
S	880848683409	6	{'result': Decimal('938535')}
S	0.06081774224059927	30	{'result': Decimal('0.246612534638041605563012066490')}
S	11546331.190703586	3	{'result': Decimal('3.40E+3')}
S	0.05269150265271717	17	{'result': Decimal('0.22954629740581130')}
S	343306386276	34	{'result': Decimal('585923.5327890491889113965280014281')}
S	7.5949825499856125	18	{'result': Decimal('2.75589958996796770')}
S	3.470010221278589e-09	1	{'result': Decimal('0.00006')}
S	563454425225	16	{'result': Decimal('750636.0138076243')}
S	900475629090	43	{'result': Decimal('948933.9434807883401683959849448228388659663')}
S	558218241198	45	{'result': Decimal('747140.041222527438434049567384904940077531235')}
S	0.02151811196091811	26	{'result': Decimal('0.14669053125855843208379030')}
S	9.894380669858468e-08	5	{'result': Decimal('0.00031455')}
S	0.6254483144051521	6	{'result': Decimal('0.790853')}
S	557789712649	39	{'result': Decimal('746853.206894768578659210569582917548371')}
S	2.4221293399248656	11	{'result': Decimal('1.5563191639')}
S	400562578905	36	{'result': Decimal('632900.133437337805717237575371493689')}
S	970515148774	14	{'result': Decimal('985147.27263186')}
S	3.565839170139871e-09	31	{'result': Decimal('0.00005971464786917754948836395501828')}
S	278928872218.45984	6	{'result': Decimal('528137')}
S	2.641686858016571e-07	26	{'result': Decimal('0.00051397342908136514356706760')}
S	0.22494146970257534	38	{'result': Decimal('0.47427994866173220526350382957905425389')}
S	982076672052	49	{'result': Decimal('990997.8163709544723468859690432675044857832663066')}
S	3261347.541263495	3	{'result': Decimal('1.81E+3')}
S	82485713.68700977	59	{'result': Decimal('9082.1645925962917828569584938176442960299801588990014702274')}
S	52375728.452851735	53	{'result': Decimal('7237.1077408624873294136381312502268665161384135262806')}
S	686471742272.8352	3	{'result': Decimal('8.29E+5')}
S	115790239865	54	{'result': Decimal('340279.649501700292320885779280232179812128946589801674')}
S	4.513861802110616e-08	32	{'result': Decimal('0.00021245850894023086235174180848202')}
S	263792.8948053294	43	{'result': Decimal('513.6077246355718374485786739694519757565015')}
S	5259901.513610061	55	{'result': Decimal('2293.447517082102591465336031152705386084680724873250530')}
S	812739823065	32	{'result': Decimal('901520.83895215644648992467404712')}
S	8.455312504065072e-07	40	{'result': Decimal('0.0009195277322661384320371296740156444078912')}
S	0.006327928427067621	22	{'result': Decimal('0.07954827733563826758326')}
S	2.5394028165589533	1	{'result': Decimal('2')}
S	4824206.982602254	44	{'result': Decimal('2196.4077450697203267343844107020075824795810')}
S	508032541089	30	{'result': Decimal('712764.015007070906210065895572')}
S	767169759.5603976	60	{'result': Decimal('27697.8295099164336120840581803012672658517673419093873165397')}
S	83575643322	18	{'result': Decimal('289094.523161543135')}
S	0.0038684834696231197	10	{'result': Decimal('0.06219713393')}`

func mathCall(name string, args ...string) (pyval.Value, error) {
	c := classMathAPI()
	_, vals, _, err := parseCall(name + "(" + strings.Join(args, ", ") + ")")
	Expect(err).NotTo(HaveOccurred())
	return invoke(c, NewMathAPI(nil), name, vals, nil)
}

// reprResult is str() of a returned dict (Python repr), or the engine's
// error text.
func reprResult(v pyval.Value, err error) string {
	if err != nil {
		return "Error during execution: " + err.Error()
	}
	return pyval.Repr(v)
}

var _ = Describe("MathAPI", func() {
	It("reproduces mpmath logarithm and Decimal square_root values exactly", func() {
		n := 0
		for _, line := range strings.Split(mathPythonCases, "\n") {
			f := strings.Split(line, "\t")
			var got string
			var want string
			switch f[0] {
			case "L":
				want = f[4]
				got = reprResult(mathCall("logarithm", f[1], f[2], f[3]))
			case "S":
				want = f[3]
				got = reprResult(mathCall("square_root", f[1], f[2]))
				if strings.HasPrefix(want, "EXC TypeError") {
					want = "{'error': 'Input must be a number or computation resulted in an invalid operation'}"
				} else if rest, ok := strings.CutPrefix(want, "EXC "); ok {
					_, msg, _ := strings.Cut(rest, ": ")
					want = "Error during execution: " + msg
				}
			}
			Expect(got).To(Equal(want), "case %q", line)
			n++
		}
		Expect(n).To(BeNumerically(">", 100))
	})

	It("computes power() like CPython's float_pow on glibc (testdata/simA_pow_cases.txt)", func() {
		raw, err := os.ReadFile(filepath.Join("testdata", "simA_pow_cases.txt"))
		Expect(err).NotTo(HaveOccurred())
		n := 0
		for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
			f := strings.Split(line, "\t")
			Expect(reprResult(mathCall("power", f[0], f[1]))).To(Equal(f[2]), line)
			n++
		}
		Expect(n).To(BeNumerically(">=", 400))
	})

	It("keeps Python's types and errors in the plain arithmetic methods", func() {
		check := func(want string, name string, args ...string) {
			ExpectWithOffset(1, serialiseResult(mathCall(name, args...))).To(Equal(want))
		}
		check(`{"result": 3288.0}`, "mean", "[3288]")
		check(`{"result": 4.853406592853679}`, "standard_deviation", "[100, 95, 85, 90, 88, 92]")
		check(`{"error": "Cannot calculate mean of an empty list"}`, "mean", "[]")
		check(`{"error": "All elements in the list must be numbers"}`, "mean", "[1, 'a']")
		check(`{"error": "All elements in the list must be numbers"}`, "sum_values", "5")
		check(`{"result": 0.30000000000000004}`, "add", "0.1", "0.2")
		check(`{"result": "ab"}`, "add", "'a'", "'b'")
		check(`{"error": "Both inputs must be numbers"}`, "add", "'a'", "1")
		check(`{"error": "Cannot divide by zero"}`, "divide", "1", "0.0")
		check(`{"result": 0.5}`, "divide", "1", "2")
		check(`{"error": "Both inputs must be numbers"}`, "multiply", "'3'", "2")
		check(`{"result": 1024}`, "power", "2", "10")
		check(`{"result": 0.25}`, "power", "2", "-2")
		check(`Error during execution: 0.0 cannot be raised to a negative power`, "power", "0", "-1")
		check(`{'result': (1.0000000000000002+1.7320508075688772j)}`, "power", "-8", "0.3333333333333333")
		check(`{"result": 5}`, "round_number", "5")
		check(`{"result": 4.0}`, "round_number", "3.7")
		check(`{"result": 2.67}`, "round_number", "2.675", "2")
		check(`{"result": 12.5}`, "percentage", "1", "8")
		check(`{"error": "Whole value cannot be zero"}`, "percentage", "1", "0")
		check(`{"result": 1}`, "min_value", "[3, 1, 2]")
		check(`{"result": "b"}`, "max_value", "['a', 'b']")
		check(`{"error": "All elements in the list must be numbers"}`, "max_value", "['a', 1]")
		check(`{"result": 5000.0}`, "si_unit_conversion", "5", "'km'", "'m'")
		check(`{"result": 0.001}`, "si_unit_conversion", "1", "'mm'", "'m'")
		check(`{"error": "Conversion from 'km' to 'in' is not supported"}`, "si_unit_conversion", "1", "'km'", "'in'")
		check(`{"error": "Value must be a number"}`, "si_unit_conversion", "'1'", "'km'", "'m'")
		check(`{"result": 212.0}`, "imperial_si_conversion", "100", "'celsius'", "'fahrenheit'")
		check(`{"result": 100.0}`, "imperial_si_conversion", "212", "'fahrenheit'", "'celsius'")
		check(`{"result": 7}`, "imperial_si_conversion", "7", "'kg'", "'kg'")
		check(`{"result": 3.0}`, "absolute_value", "-3.0")
		check(`{"error": "Input must be a number"}`, "absolute_value", "'x'")
		check(`{"error": "Cannot calculate square root of a negative number"}`, "square_root", "-4", "5")
	})
})

func BenchmarkLogarithm50Digits(b *testing.B) {
	m := NewMathAPI(nil)
	for i := 0; i < b.N; i++ {
		if _, err := call(m, "logarithm", pyval.Float(980.0), pyval.Int(20), pyval.Int(50)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLogarithm5000Digits(b *testing.B) {
	m := NewMathAPI(nil)
	for i := 0; i < b.N; i++ {
		if _, err := call(m, "logarithm", pyval.Float(980.0), pyval.Int(20), pyval.Int(5000)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSquareRoot1000Digits(b *testing.B) {
	m := NewMathAPI(nil)
	for i := 0; i < b.N; i++ {
		if _, err := call(m, "square_root", pyval.Float(23.555), pyval.Int(1000)); err != nil {
			b.Fatal(err)
		}
	}
}
