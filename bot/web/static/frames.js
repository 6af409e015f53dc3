// @ts-check
// The socket's frames, one typedef each: what the server sends (Frame) and what this client
// asks (Request). They are the server's definitions (bot/web/frames.py) written for the type
// checker; tests/web/test_frames.py reads both and fails when a key or a type differs. No
// code here: the other modules import these types in their JSDoc only.

// ------------------------------------------------------------------ hello

/**
 * How the language puts the client's words together.
 * @typedef {Object} Words
 * @property {string} list between the names of a list ("、", ", ")
 * @property {string} dot between the parts of a line (" · ")
 * @property {string} times how many of a card ("×{n}")
 */

/**
 * What a card face shows (the pictures' faces, render/cards.py).
 * @typedef {Object} Faces
 * @property {string} letters the rank letters of the notation, by rank ("3456789TJQKA2BR")
 * @property {string[]} ranks each rank's index on a face
 * @property {Object<string, string>} suits suit letter → its glyph, in the hand's order
 * @property {string} joker the word across a joker
 * @property {number[]} underlined the ranks underlined upside down (6 and 9)
 */

/**
 * A connection's first frame (and one per language switch): who it is and its words.
 * @typedef {Object} Hello
 * @property {"hello"} t
 * @property {number | null} seat
 * @property {boolean} watching
 * @property {string} lang
 * @property {string[]} langs the languages the server speaks
 * @property {string} tag the language's tag for the page
 * @property {Object<string, string>} strings the client's texts by key, placeholders ({n}) left in
 * @property {Words} words
 * @property {Faces} faces
 */

// ------------------------------------------------------------------ state

/**
 * A seat's last action: its verb and the cards it played ("" for none).
 * @typedef {Object} LastPart
 * @property {string} verb
 * @property {string} cards
 */

/**
 * One seat as everyone sees it: its card count, never its cards.
 * @typedef {Object} SeatPart
 * @property {string} name
 * @property {number} team
 * @property {number} cards
 * @property {number | null} place
 * @property {string[]} marks
 * @property {LastPart | null} last
 * @property {boolean} empty
 * @property {boolean} person
 */

/**
 * The 记牌器: the jokers and 2s not yet played.
 * @typedef {Object} CounterPart
 * @property {number} big
 * @property {number} small
 * @property {number} twos
 */

/**
 * One game of the series: each seat's place (0: still playing) and points, whether its place
 * points were doubled (串三户).
 * @typedef {Object} GameScore
 * @property {number[]} places
 * @property {number[]} points
 * @property {boolean} doubled
 * @property {boolean} finished
 */

/**
 * The series' score: each seat's (penalties in) and each team's points, the games played;
 * each game's places and points, the penalties, each player's series score (their team's seat
 * points and their own penalties: what their profile counts) and, once the series is over,
 * each seat's rating change and the figure after it (null for a seat not rated) and its
 * player's title ("" for an AI seat; empty lists before).
 * @typedef {Object} ScorePart
 * @property {number[]} totals
 * @property {number[]} teams
 * @property {number} played
 * @property {GameScore[]} games
 * @property {number[]} penalties
 * @property {number[]} scores
 * @property {(number | null)[]} ratingChange
 * @property {(number | null)[]} ratingAfter
 * @property {string[]} titles
 */

/**
 * One player's line of a tournament's standings: the mark ("" or out/left, worded).
 * @typedef {Object} EventLine
 * @property {number} rank
 * @property {string} name
 * @property {number} points
 * @property {number} rounds
 * @property {string} mark
 */

/**
 * The tournament (比赛) a round's table belongs to: its name, the bar's words (the round of
 * how many) and the standings, worded in one language.
 * @typedef {Object} EventPart
 * @property {string} name
 * @property {number} round
 * @property {number} rounds
 * @property {string} title
 * @property {EventLine[]} lines
 */

/**
 * A finished game's result, on the table until the next deal: each seat's place and points,
 * the teams' points, each seat's marks ("opened" 开点, "burn_won" 烧成, "stifled" 被闷), and
 * while the next deal waits, the seats still to press go on and until when.
 * @typedef {Object} ResultPart
 * @property {number} number
 * @property {number[]} places
 * @property {number[]} points
 * @property {number[]} teams
 * @property {string[][]} marks
 * @property {number[]} waiting
 * @property {number | null} deadline
 */

/**
 * A tribute payment (进贡): its kind (kindText: 点贡, 烧贡, 落贡, 闷贡 worded), who paid whom,
 * the cards (their ranks, as announced).
 * @typedef {Object} PaidPart
 * @property {string} kind
 * @property {string} kindText
 * @property {number} payer
 * @property {number} receiver
 * @property {string} cards
 */

/**
 * A return due (还贡): giver gives count cards back to taker; done: made.
 * @typedef {Object} ReturnPart
 * @property {number} giver
 * @property {number} taker
 * @property {number} count
 * @property {boolean} done
 */

/**
 * The deal's tribute: the payments, the returns due and the table's return rule in words
 * ("" when it does not apply).
 * @typedef {Object} TributePart
 * @property {PaidPart[]} paid
 * @property {ReturnPart[]} returns
 * @property {string} rule
 */

/**
 * The table as everyone may see it, worded in one language; event only at a tournament's
 * table.
 * @typedef {Object} TablePart
 * @property {number} table
 * @property {boolean} open
 * @property {boolean} playing
 * @property {boolean} started
 * @property {number | null} number
 * @property {number} games
 * @property {string | null} phase
 * @property {string | null} asking
 * @property {number[]} toAct
 * @property {number | null} deadline
 * @property {boolean} burn
 * @property {string | null} standing
 * @property {number | null} standingSeat
 * @property {string} standingText
 * @property {boolean} melee
 * @property {CounterPart | null} counter
 * @property {SeatPart[]} seats
 * @property {string[]} log
 * @property {ScorePart | null} score
 * @property {ResultPart | null} result
 * @property {TributePart | null} tribute
 * @property {EventPart} [event]
 */

/**
 * What a seat is asked: its answers, the legal plays as canonical notation, what to return,
 * the clock and the question in words.
 * @typedef {Object} QuestionPart
 * @property {string} kind
 * @property {string} token
 * @property {string[]} verbs
 * @property {string[]} answers
 * @property {string[]} plays
 * @property {number} returnCount
 * @property {number[]} returnable
 * @property {number | null} deadline
 * @property {number} seconds
 * @property {boolean} leading
 * @property {string} text
 */

/**
 * What only one seat is sent: its hand and its question.
 * @typedef {Object} MePart
 * @property {number} seat
 * @property {string[]} hand
 * @property {QuestionPart | null} question
 * @property {string[]} received
 */

/**
 * The table after a change (v counts them): the public part, and this socket's seat's part
 * (null: a spectator).
 * @typedef {Object} State
 * @property {"state"} t
 * @property {number} v
 * @property {number} now
 * @property {TablePart} table
 * @property {MePart | null} me
 */

// ------------------------------------------------------------------ answers and words

/**
 * A request done.
 * @typedef {Object} Ok
 * @property {"ok"} t
 * @property {number | string | null} id
 */

/**
 * A request refused, in this socket's language: nothing changed.
 * @typedef {Object} Refused
 * @property {"refused"} t
 * @property {number | string | null} id
 * @property {string} text
 */

/**
 * The hint now: its verb and cards (notation), in words.
 * @typedef {Object} Hint
 * @property {"hint"} t
 * @property {number | string | null} id
 * @property {string} verb
 * @property {string} cards
 * @property {string} text
 */

/**
 * A selection in words, and whether it is a legal play now.
 * @typedef {Object} Described
 * @property {"described"} t
 * @property {number | string | null} id
 * @property {string} cards
 * @property {string} text
 * @property {boolean} legal
 */

/**
 * The answer to a ping.
 * @typedef {Object} Pong
 * @property {"pong"} t
 * @property {number | string | null} id
 */

/**
 * The table ended, or the link or the person was refused: the client stops there.
 * @typedef {Object} Gone
 * @property {"gone"} t
 * @property {string} text
 */

/**
 * Not now (the table is coming back, the server is full): the client comes back.
 * @typedef {Object} Wait
 * @property {"wait"} t
 * @property {string} text
 */

/**
 * Every frame the server sends.
 * @typedef {Hello | State | Ok | Refused | Hint | Described | Pong | Gone | Wait} Frame
 */

// ------------------------------------------------------------------ requests

/**
 * Play CARDS, pass, yield, burn CARDS, noburn, an answer (declare, nodeclare, …), return
 * CARDS: answered ok or refused. token: the question answered.
 * @typedef {Object} ActRequest
 * @property {"act"} t
 * @property {number | string} [id]
 * @property {string} verb
 * @property {string | null} [cards]
 * @property {string | null} [token]
 */

/**
 * The hint now: answered hint.
 * @typedef {Object} HintRequest
 * @property {"hint"} t
 * @property {number | string} [id]
 */

/**
 * A selection (card notation) in words: answered described.
 * @typedef {Object} DescribeRequest
 * @property {"describe"} t
 * @property {number | string} [id]
 * @property {string} cards
 */

/**
 * Take the seat back from 托管: ok or refused.
 * @typedef {Object} BackRequest
 * @property {"back"} t
 * @property {number | string} [id]
 */

/**
 * 托管 on request: ok or refused.
 * @typedef {Object} AutoRequest
 * @property {"auto"} t
 * @property {number | string} [id]
 */

/**
 * Another series once one is over: ok or refused.
 * @typedef {Object} AgainRequest
 * @property {"again"} t
 * @property {number | string} [id]
 */

/**
 * 继续: the seat has seen the game's result (the next deal waits for it): ok.
 * @typedef {Object} GoOnRequest
 * @property {"goon"} t
 * @property {number | string} [id]
 */

/**
 * The page is shown (true) or hidden (the Page Visibility API), said at each hello and each
 * change: while shown, its seat's questions notify nobody through Discord. Not answered.
 * @typedef {Object} ShownRequest
 * @property {"shown"} t
 * @property {number | string} [id]
 * @property {boolean} shown
 */

/**
 * Switch language: a new hello and state.
 * @typedef {Object} LangRequest
 * @property {"lang"} t
 * @property {number | string} [id]
 * @property {string} lang
 */

/**
 * The client's heartbeat: answered pong.
 * @typedef {Object} PingRequest
 * @property {"ping"} t
 * @property {number | string} [id]
 */

/**
 * Every request this client may send.
 * @typedef {ActRequest | HintRequest | DescribeRequest | BackRequest | AutoRequest | AgainRequest | GoOnRequest | ShownRequest | LangRequest | PingRequest} Request
 */

export {};
