"""The questions of the polyglot code set, written by hand against docs/: Alamofire
(Swift), okio (Kotlin), Sinatra (Ruby), Slim (PHP), nvm (shell) and inspect.lua
(Lua). Each question's evidence is text exactly as the code reader extracts it (the
file's own text), found once in its file (or first after ``after``).

Tags as in the code set: constant, logic, docstring, comment, error.
"""

TAGS = {"constant", "logic", "docstring", "comment", "error"}

Q = dict

RP = "RetryPolicy.swift"
VA = "Validation.swift"
TH = "Throttler.kt"
AT = "AsyncTimeout.kt"
SB = "sinatra-base.rb"
BP = "BodyParsingMiddleware.php"
RO = "Route.php"
NV = "nvm.sh"
IN = "inspect.lua"

QUESTIONS = [
    # -- Alamofire (Swift) -------------------------------------------------------------
    Q(doc=RP, question="How long does Alamofire's RetryPolicy wait before retrying a request?",
      evidence=["completion(.retryWithDelay(pow(Double(exponentialBackoffBase), "
                "Double(request.retryCount)) * exponentialBackoffScale))"], tags=["logic"]),
    Q(doc=RP, question="How many times does RetryPolicy retry a request by default?",
      evidence=["public static let defaultRetryLimit: UInt = 2"], tags=["constant"]),
    Q(doc=RP, question="Which URL errors does ConnectionLostRetryPolicy retry?",
      evidence=["retryableURLErrorCodes: [.networkConnectionLost])"], tags=["logic"]),
    Q(doc=RP, question="Does RetryPolicy retry a request whose HTTP method is not retryable?",
      evidence=["guard let httpMethod = request.request?.method, "
                "retryableHTTPMethods.contains(httpMethod) else { return false }"],
      tags=["logic"]),
    Q(doc=VA, question="Which status codes does Alamofire's validate() accept by default?",
      evidence=["fileprivate var acceptableStatusCodes: Range<Int> { 200..<300 }"],
      tags=["constant"]),
    Q(doc=VA, question="Which content types are acceptable when the request sends no Accept "
                       "header?",
      evidence=["return accept.components(separatedBy: \",\")\n        }\n\n"
                "        return [\"*/*\"]"], tags=["logic"]),
    Q(doc=VA, question="How does Alamofire read a MIME type that carries parameters such as "
                       "a charset?",
      evidence=["let split = stripped[..<(stripped.range(of: \";\")?.lowerBound ?? "
                "stripped.endIndex)]"], tags=["logic"]),
    Q(doc=VA, question="What error does validation report when the response has no content "
                       "type?",
      evidence=[".missingContentType(acceptableContentTypes: acceptableContentTypes.sorted())"],
      tags=["error"]),
    # -- okio (Kotlin) -----------------------------------------------------------------
    Q(doc=TH, question="What is okio Throttler's default maximum number of bytes allocated "
                       "on one call?",
      evidence=["private var maxByteCount: Long = 256 * 1024 // 256 KiB."], tags=["constant"]),
    Q(doc=TH, question="What does Throttler check when its rate is set?",
      evidence=["require(bytesPerSecond >= 0)\n      require(waitByteCount > 0)\n"
                "      require(maxByteCount >= waitByteCount)"], tags=["logic"]),
    Q(doc=TH, question="When does the throttler hand out a block of bytes without waiting "
                       "even though it cannot fulfil the whole request?",
      evidence=["// Fulfill a big-enough block without waiting.\n"
                "    if (immediateBytes >= waitByteCount) {"], tags=["comment"]),
    Q(doc=TH, question="How does the throttler convert a byte count to nanoseconds?",
      evidence=["private fun Long.bytesToNanos() = this * 1_000_000_000L / bytesPerSecond"],
      tags=["logic"]),
    Q(doc=AT, question="How much data does okio's AsyncTimeout sink write at a time?",
      evidence=["private const val TIMEOUT_WRITE_SIZE = 64 * 1024"], tags=["constant"]),
    Q(doc=AT, question="How long does okio's watchdog thread stay idle before it exits?",
      evidence=["private val IDLE_TIMEOUT_MILLIS = TimeUnit.SECONDS.toMillis(60)"],
      tags=["constant"]),
    Q(doc=AT, question="What exception does AsyncTimeout create when a timeout occurs?",
      evidence=["val e = InterruptedIOException(\"timeout\")"], tags=["error"]),
    Q(doc=AT, question="What does the watchdog do when the first queued timeout has not "
                       "elapsed yet?",
      evidence=["// The first node in the queue hasn't timed out yet. Await that.\n"
                "      if (waitNanos > 0) {\n"
                "        condition.await(waitNanos, TimeUnit.NANOSECONDS)"], tags=["logic"]),
    Q(doc=AT, question="How does the timeout priority queue grow when it is full?",
      evidence=["val doubledArray = arrayOfNulls<AsyncTimeout?>(newSize * 2)"], tags=["logic"]),
    # -- Sinatra (Ruby) ----------------------------------------------------------------
    Q(doc=SB, question="Which status code does Sinatra's redirect use for a POST over "
                       "HTTP/1.1?",
      evidence=["if (http_version == 'HTTP/1.1') && (env['REQUEST_METHOD'] != 'GET')\n"
                "        status 303"], tags=["logic"]),
    Q(doc=SB, question="When does Sinatra's last_modified answer 304 Not Modified?",
      evidence=["halt 304 if since >= time.to_i"], tags=["logic"]),
    Q(doc=SB, question="Does a GET route in Sinatra also answer HEAD requests?",
      evidence=["route('GET', path, opts, &block)\n\n        @conditions = conditions\n"
                "        route('HEAD', path, opts, &block)"], tags=["logic"]),
    Q(doc=SB, question="Which signals does Sinatra trap to stop its server?",
      evidence=["%i[INT TERM].each do |signal|"], tags=["logic"]),
    Q(doc=SB, question="What error does Sinatra raise for a malformed multipart form?",
      evidence=["raise BadRequest, \"Invalid multipart/form-data: "
                "#{Rack::Utils.escape_html(e.message)}\""], tags=["error"]),
    # -- Slim (PHP) --------------------------------------------------------------------
    Q(doc=BP, question="What does Slim's body parsing middleware return for a JSON body "
                       "that does not decode to an array?",
      evidence=["$result = json_decode($input, true);\n\n            if (!is_array($result)) {\n"
                "                return null;"], tags=["logic"]),
    Q(doc=BP, question="How does Slim parse a body of a media type like "
                       "application/vnd.api+json that has no parser of its own?",
      evidence=["$parts = explode('+', $mediaType);\n            if (count($parts) >= 2) {\n"
                "                $mediaType = 'application/' . $parts[count($parts) - 1];"],
      tags=["logic"]),
    Q(doc=BP, question="What error does Slim raise when asked for the parser of an "
                       "unregistered media type?",
      evidence=["throw new RuntimeException('No parser for type ' . $mediaType);"],
      tags=["error"]),
    Q(doc=BP, question="Which media types does Slim parse as XML?",
      evidence=["$this->registerBodyParser('application/xml', $xmlCallable);\n"
                "        $this->registerBodyParser('text/xml', $xmlCallable);"],
      tags=["constant"]),
    Q(doc=RO, question="When does a Slim route add its group's middleware?",
      evidence=["if (!$this->groupMiddlewareAppended) {\n"
                "            $this->appendGroupMiddlewareToRoute();"], tags=["logic"]),
    Q(doc=RO, question="What does a Slim route return for an argument it does not have?",
      evidence=["if (array_key_exists($name, $this->arguments)) {\n"
                "            return $this->arguments[$name];\n        }\n"
                "        return $default;"], tags=["logic"]),
    # -- nvm (shell) -------------------------------------------------------------------
    Q(doc=NV, question="Which architecture name does nvm use on aarch64 machines?",
      evidence=["aarch64 | armv8l) NVM_ARCH=\"arm64\" ;;"], tags=["constant"]),
    Q(doc=NV, question="What does nvm do inside a 32-bit container on a 64-bit kernel?",
      evidence=["if [ \"_${LONG_BIT}\" = \"_32\" ] && [ \"${NVM_ARCH}\" = \"x64\" ]; then\n"
                "    NVM_ARCH=\"x86\""], tags=["logic"]),
    Q(doc=NV, question="Where does nvm download Node.js from by default?",
      evidence=["node-std) NVM_MIRROR=\"${NVM_NODEJS_ORG_MIRROR:-https://nodejs.org/dist}\" ;;"],
      tags=["constant"]),
    Q(doc=NV, question="What does nvm reject in a mirror setting?",
      evidence=["*\\`* | *\\\\* | *\\'* | *\\(* | *' '* )\n"
                "      nvm_err '$NVM_NODEJS_ORG_MIRROR and $NVM_IOJS_ORG_MIRROR may only "
                "contain a URL'"], tags=["error"]),
    Q(doc=NV, question="How does nvm turn a version into a number it can compare?",
      evidence=["printf \"%d%06d%06d\\n\", a[1], a[2], a[3];"], tags=["logic"]),
    Q(doc=NV, question="Which downloader does nvm prefer when both curl and wget are "
                       "installed?",
      evidence=["if nvm_has_executable \"curl\"; then\n    NVM_DOWNLOADER='curl'"],
      tags=["logic"]),
    # -- inspect.lua (Lua) -------------------------------------------------------------
    Q(doc=IN, question="How does inspect.lua quote a string that holds double quotes but "
                       "no single quotes?",
      evidence=["if match(str, '\"') and not match(str, \"'\") then\n"
                "      return \"'\" .. str .. \"'\""], tags=["logic"]),
    Q(doc=IN, question="What does inspect print for a table nested deeper than the depth "
                       "option?",
      evidence=["elseif self.level >= self.depth then\n         puts(buf, '{...}')"],
      tags=["logic"]),
    Q(doc=IN, question="What indentation does inspect use by default?",
      evidence=["local indent = options.indent or '  '"], tags=["constant"]),
    Q(doc=IN, question="In what order does inspect sort keys of different types?",
      evidence=["['number'] = 1, ['boolean'] = 2, ['string'] = 3, ['table'] = 4,"],
      tags=["constant"]),
]
