"""The questions of the held-out documentation set, written by hand against the
documents in docs/: the Lua 5.3 reference manual and readme (HTML) and chapters V2
and V3 of OWASP ASVS 4.0.3 (PDF). Each question's evidence is text exactly as the
reader extracts it from its document (found once, or first after ``after``).

Tags: table (the evidence is a table row), heading-dependent (the question needs
the heading the evidence sits under: a function's or an option's name), procedure
(steps or commands), prose, code.
"""

TAGS = {"table", "heading-dependent", "procedure", "prose", "code"}

Q = dict

M = "lua-5.3-manual.html"
R = "lua-5.3-readme.html"
A = "asvs-4.0.3-v2-v3.pdf"

QUESTIONS = [
    # -- the Lua 5.3 reference manual ----------------------------------------------------
    Q(doc=M, question="Which basic types does Lua have?",
      evidence=["There are eight basic types in Lua: nil, boolean, number, string, "
                "function, userdata, thread, and table."], tags=["prose"]),
    Q(doc=M, question="What does a garbage-collector pause of 200 mean in Lua?",
      evidence=["A value of 200 means that the collector waits for the total memory in use to "
                "double before starting a new cycle."], tags=["prose"]),
    Q(doc=M, question="What is the default garbage-collector step multiplier and what does "
                      "it mean?",
      evidence=['The default is 200, which means that the collector runs at "twice" the speed '
                'of memory allocation.'], tags=["prose"]),
    Q(doc=M, question="What does the count option of collectgarbage return?",
      evidence=['"count": returns the total memory in use by Lua in Kbytes.'],
      tags=["heading-dependent"]),
    Q(doc=M, question="How do you make the keys or values of a Lua table weak?",
      evidence=["The weakness of a table is controlled by the __mode field of its metatable."],
      tags=["prose"]),
    Q(doc=M, question="What is an ephemeron table in Lua?",
      evidence=["A table with weak keys and strong values is also called an ephemeron table."],
      tags=["prose"]),
    Q(doc=M, question="How many free stack slots does Lua guarantee when it calls a C function?",
      evidence=["Whenever Lua calls C, it ensures that the stack has space for at least "
                "LUA_MINSTACK extra slots. LUA_MINSTACK is defined as 20"], tags=["prose"]),
    Q(doc=M, question="Which environment variable does the standalone Lua 5.3 interpreter "
                      "run before its arguments?",
      evidence=["the interpreter checks for an environment variable LUA_INIT_5_3 (or LUA_INIT "
                "if the versioned name is not defined) before running any argument."],
      tags=["procedure"]),
    Q(doc=M, question="What does the -E option of the lua interpreter make it ignore?",
      evidence=["When called with option -E, besides ignoring LUA_INIT, Lua also ignores the "
                "values of LUA_PATH and LUA_CPATH"], tags=["procedure"]),
    Q(doc=M, question="What happened to the bit32 library in Lua 5.3?",
      evidence=["The bit32 library has been deprecated."], tags=["prose"]),
    Q(doc=M, question="Which pattern matches exactly one UTF-8 byte sequence in Lua?",
      evidence=['The pattern (a string, not a function) "[\\0-\\x7F\\xC2-\\xF4][\\x80-\\xBF]*"'],
      tags=["heading-dependent", "code"]),
    Q(doc=M, question="What does math.type return for a float?",
      evidence=['Returns "integer" if x is an integer, "float" if it is a float, or nil if '
                'x is not a number.'], tags=["heading-dependent"]),
    Q(doc=M, question="What does coroutine.wrap return?",
      evidence=["Returns a function that resumes the coroutine each time it is called."],
      tags=["heading-dependent"]),
    Q(doc=M, question="Where may a goto statement jump to in Lua?",
      evidence=["A goto may jump to any visible label as long as it does not enter into the "
                "scope of a local variable."], tags=["prose"]),
    Q(doc=M, question="What does lua_pcall do when the called function raises an error?",
      evidence=["However, if there is any error, lua_pcall catches it, pushes a single value on "
                "the stack (the error message), and returns an error code."],
      tags=["heading-dependent"]),
    Q(doc=M, question="What are the parameters of lua_pcall?",
      evidence=["int lua_pcall (lua_State *L, int nargs, int nresults, int msgh);"],
      tags=["code"]),
    Q(doc=M, question="What happens when integer arithmetic overflows in Lua 5.3?",
      evidence=["In case of overflows in integer arithmetic, all operations wrap around, "
                "according to the usual rules of two-complement arithmetic."], tags=["prose"]),
    Q(doc=M, question="What exit status does os.exit use when no code is given?",
      evidence=["The default value for code is true."], tags=["heading-dependent"]),
    Q(doc=M, question="How does Lua define the length of a string?",
      evidence=["The length of a string is its number of bytes"], tags=["prose"]),
    Q(doc=M, question="What code is a numeric for loop equivalent to?",
      evidence=["local var, limit, step = tonumber(e1), tonumber(e2), tonumber(e3)"],
      tags=["code"]),
    # -- the Lua 5.3 readme ---------------------------------------------------------------
    Q(doc=R, question="How do I build Lua for my platform?",
      evidence=['If your platform is listed, just do "make xxx", where xxx is your platform '
                'name.'], tags=["procedure"]),
    Q(doc=R, question="Which files does compiling Lua produce?",
      evidence=["The compilation takes only a few moments and produces three files in the src "
                "directory: lua (the interpreter), luac (the compiler), and liblua.a (the "
                "library)."], tags=["prose"]),
    Q(doc=R, question="What should I install if building Lua on Linux fails to compile?",
      evidence=["make sure you have installed the readline development package (which is "
                "probably named libreadline-dev or readline-devel)."], tags=["procedure"]),
    Q(doc=R, question="How do I install Lua into a directory of my choice?",
      evidence=['To install Lua locally, but in some other directory, do "make install '
                'INSTALL_TOP=xxx", where xxx is your chosen directory.'], tags=["procedure"]),
    Q(doc=R, question="Which file do I edit to customize Lua's features?",
      evidence=["Lua features — edit src/luaconf.h."], tags=["heading-dependent"]),
    # -- OWASP ASVS 4.0.3, V2 Authentication and V3 Session Management ----------------------
    Q(doc=A, question="How long must user-set passwords be at least, according to ASVS?",
      evidence=["Verify that user set passwords are at least 12 characters in length"],
      tags=["table"]),
    Q(doc=A, question="How long a password must be permitted, and above what length may "
                      "passwords be denied?",
      evidence=["Verify that passwords of at least 64 characters are permitted, and that "
                "passwords of more than 128 characters are denied."], tags=["table"]),
    Q(doc=A, question="How many PBKDF2 iterations does ASVS expect?",
      evidence=["typically at least 100,000 iterations."], tags=["table"]),
    Q(doc=A, question="What is the minimum bcrypt work factor?",
      evidence=["Verify that if bcrypt is used, the work factor SHOULD be as large as "
                "verification server performance will allow, with a minimum of 10."],
      tags=["table"]),
    Q(doc=A, question="How long must a password salt be?",
      evidence=["Verify that the salt is at least 32 bits in length"], tags=["table"]),
    Q(doc=A, question="After how long must out-of-band authentication codes expire?",
      evidence=["Verify that the out of band verifier expires out of band authentication "
                "requests, codes, or tokens after 10 minutes."], tags=["table"]),
    Q(doc=A, question="How much entropy must session tokens have?",
      evidence=["Verify that session tokens possess at least 64 bits of entropy."],
      tags=["table"]),
    Q(doc=A, question="Which cookie attribute keeps session cookies away from scripts?",
      evidence=["Verify that cookie-based session tokens have the 'HttpOnly' attribute set."],
      tags=["table"]),
    Q(doc=A, question="Which cookie name prefix limits a session cookie to the host that "
                      "set it?",
      evidence=['Verify that cookie-based session tokens use the "__Host-" prefix so cookies '
                'are only sent to the host that initially set the cookie.'], tags=["table"]),
    Q(doc=A, question="Which default account names must not be present?",
      evidence=['Verify shared or default accounts are not present (e.g. "root", "admin", or '
                '"sa").'], tags=["table"]),
    Q(doc=A, question="What does NIST call passwords, and what do they include?",
      evidence=['Passwords, called "Memorized Secrets" by NIST 800-63, include passwords, '
                'PINs, unlock patterns, pick the correct kitten or another image element, and '
                'passphrases.'], tags=["prose"]),
    Q(doc=A, question="When must users be asked to authenticate again if they stay logged in?",
      evidence=["If authenticators permit users to remain logged in, verify that "
                "re-authentication occurs periodically both when actively used or after an "
                "idle period."], tags=["table"]),
]
