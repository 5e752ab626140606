# strata-cli repair on OZDF: a corpus with an intact document, a document that cannot be read
# (a byte that is not UTF-8), and a directory document whose parts have a gap and one part
# without its DATA block. The corpus is saved without the unreadable document and the broken
# part (exit 1), both losses are reported with their files, the two files are quarantined with
# their bytes, the parts are renumbered, the output validates; a document whose mends bring back
# what readers of the damaged file skip lists that difference (exit 1), one rewritten in the
# canonical layout alone is complete (exit 0); a document with nothing readable is refused (exit 2); an existing output is never replaced (exit 2); a dry run
# writes nothing; --json.
#   -DCLI=<strata-cli> -DWORK=<scratch dir>
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${WORK}")
file(WRITE "${WORK}/in/good.ozdf" "#### TITLE\nGood words.\n\n")
string(ASCII 255 ff)
file(WRITE "${WORK}/in/bad.ozdf" "#### TITLE\nBad ${ff} byte.\n\n")
file(WRITE "${WORK}/in/book/_metadata.ozdf" "#### TITLE\nA book\n\n#### [[CHAPTERS]]\n\n")
file(WRITE "${WORK}/in/book/CHAPTERS-01.ozdp" "#### DATA\none\n\n")
file(WRITE "${WORK}/in/book/CHAPTERS-03.ozdp" "#### NAME\nlost\n\n")
file(WRITE "${WORK}/in/book/CHAPTERS-04.ozdp" "#### DATA\nfour\n\n")

include("${CMAKE_CURRENT_LIST_DIR}/cli_run_function.cmake")

function(expect text)
    string(FIND "${last_out}" "${text}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "'${text}' not in the report:\n${last_out}")
    endif()
endfunction()

run(1 repair in --out saved --dry-run)
if(EXISTS "${WORK}/saved" OR EXISTS "${WORK}/saved.quarantine")
    message(FATAL_ERROR "a dry run wrote something")
endif()
run(1 repair in --out saved)
expect("lost    document 'bad.ozdf' cannot be parsed: line 2 (bytes 15 to 16): OZDF-UTF8")
expect("lost    book: external list [[CHAPTERS]] loses the item of 'CHAPTERS-03.ozdp': the part has no DATA block")
expect("action  book: external list [[CHAPTERS]]: parts renumbered 1..2 in their order: 'CHAPTERS-04.ozdp' is now part 2")
expect("OZDF in: 2 documents recovered, 2 losses, written to saved")
run(0 validate saved)
foreach(f bad.ozdf book/CHAPTERS-03.ozdp)
    file(READ "${WORK}/in/${f}" original HEX)
    file(READ "${WORK}/saved.quarantine/${f}" kept HEX)
    if(NOT original STREQUAL kept)
        message(FATAL_ERROR "${f} is not quarantined with its bytes")
    endif()
endforeach()
file(READ "${WORK}/saved/book/CHAPTERS-02.ozdp" four)
if(NOT four STREQUAL "#### DATA\nfour\n\n" OR EXISTS "${WORK}/saved/bad.ozdf")
    message(FATAL_ERROR "unexpected output:\n${four}")
endif()
run(2 repair in --out saved)
run(1 repair --json in --out saved2)
if(NOT last_out MATCHES "\"schema\": \"strata.repair/1\"" OR NOT last_out MATCHES "\"items\": \"documents\""
   OR NOT last_out MATCHES "\"format\": \"OZDF\"" OR NOT last_out MATCHES "\"recovered\": 2")
    message(FATAL_ERROR "no JSON report:\n${last_out}")
endif()

# Mended only, but readers of the damaged file do not see the block BODY the mend brings back:
# the output's content differs (exit 1, listed). A mend that changes nothing readers read is
# complete.
file(WRITE "${WORK}/mend.ozdf" "#### TITLE\nwords\n####\tBODY\nmore\n")
run(1 repair mend.ozdf --out mended.ozdf)
expect("the header '####?BODY' given the single space after '####'")
expect("a header must follow a blank line: the blank line added")
expect("lost    the output differs from the input: added mend.ozdf/block BODY")
run(0 validate mended.ozdf)
file(WRITE "${WORK}/spaced.ozdf" "#### TITLE\nwords\n\n\n\n#### BODY\n   more   text\n")
run(0 repair spaced.ozdf --out respaced.ozdf)

# Nothing readable: refused, nothing written.
file(WRITE "${WORK}/hopeless.ozdf" "### TITLE\nx\n")
run(2 repair hopeless.ozdf --out hopeless-repaired.ozdf)
if(NOT last_err MATCHES "no document could be recovered" OR EXISTS "${WORK}/hopeless-repaired.ozdf"
   OR EXISTS "${WORK}/hopeless-repaired.ozdf.quarantine")
    message(FATAL_ERROR "unexpected refusal:\n${last_err}")
endif()
