# English: the complete set of the bot's sentences. zh.ftl and vi.ftl must have the same keys.

## Names

side-red = Red
side-black = Black
seat-first = the first player (the first flip decides your colour)
seat-second = the second player (the first flip decides your colour)
variant-xiangqi = Xiangqi
variant-jieqi = Jieqi
variant-banqi = Banqi
role-general = general
role-advisor = advisor
role-elephant = elephant
role-chariot = chariot
role-cannon = cannon
role-horse = horse
role-soldier = soldier
piece-name = { $side } { $role }
player-with-side = { $player } ({ $side })
duration-days = { $n ->
    [one] 1 day
   *[other] { $n } days
}
duration-hours = { $n ->
    [one] 1 hour
   *[other] { $n } hours
}
duration-minutes = { $n ->
    [one] 1 minute
   *[other] { $n } minutes
}
duration-seconds = { $n ->
    [one] 1 second
   *[other] { $n } seconds
}

## Buttons

button-accept = Accept
button-decline = Decline
button-resign = Resign
button-draw = Offer a draw
button-accept-draw = Accept the draw

## Challenges

challenge-anyone = anyone
challenge-colour-red = { $challenger } plays Red
challenge-colour-black = { $challenger } plays Black
challenge-colour-random = colours by coin toss
challenge-posted = { $challenger } challenges { $opponent } to { $variant } ({ $preset } rules, { $time }; { $colour }).
    Accept within { $expiry } with the button or /accept. Challenge { $challenge }.
challenge-accepted = Accepted by { $player }: game { $game } has started.
challenge-declined = Declined by { $player }.
challenge-withdrawn = Withdrawn by { $player }.
challenge-expired = Nobody accepted in time: the challenge has expired.
accepted-elsewhere = You accepted { $challenger }'s challenge. Game { $game } is played in the chat where the challenge was posted.

## Play again: rematch and seek

button-rematch = Rematch
button-take-seek = Take it
button-cancel-seek = Cancel
command-rematch = The same game again with colours swapped (under a result: the Rematch button)
command-seek = Quick game: an open challenge anyone here can take (3+2 unless you name a time)
option-opponent = Who to play: me, the engine (default), or anyone here (a quick game)
choice-opponent-bot = The engine
choice-opponent-anyone = Anyone here (quick game)
option-seek-time = The game clock (default 3+2, blitz)
rematch-offered = { $challenger } offers { $opponent } a rematch of game { $game }: { $variant } ({ $preset } rules, { $time }; { $colour } this time).
    Accept within { $expiry } with the button, /accept or Rematch. Challenge { $challenge }.
rematch-offer-sent = Your rematch offer to { $player } is posted in the chat (challenge { $challenge }): the game starts when they accept or press Rematch.
seek-posted = { $challenger } is looking for a game: { $variant } ({ $preset } rules, { $time }; { $colour }). Anyone here may take it with the button or /accept within { $expiry }. Challenge { $challenge }.
refuse-rematch-not-a-player = Only the players of game { $game }, { $first } and { $second }, can ask for its rematch. Start your own game with /challenge or /seek.
refuse-rematch-running = Game { $game } is still being played: a rematch comes after its result.
refuse-rematch-tournament = Game { $game } is a tournament game: the tournament pairs its games, so it has no rematch.
refuse-rematch-no-game = You have no finished game here to play again. Say which one: /rematch <id> (/games lists them).
refuse-rematch-offered = You already offered { $player } a game here (challenge { $challenge }): wait for their answer, or withdraw it with /cancel { $challenge }.
refuse-seek-private = A seek is posted in a group chat, where others can take it. Add me to a group and send /seek there.
refuse-seek-user = A seek is open to anyone, so it names nobody. To challenge someone, use /challenge @them.
refuse-seek-option = I do not understand “{ $option }” in a seek. Use a time (3+2, 10m|30s, blitz, 1d), a variant (jieqi, xiangqi, banqi), a colour (red, black, random), rules (standard, pychess, tencent, vietnam) or secret-captures.

## Game start

game-started = Game { $game } has started: { $first } against { $second }.
game-terms = { $variant } · { $preset } rules · { $time }
game-commitment = Fairness commitment, sha256(deal ‖ salt): { $commitment }. The deal and salt are published when the game ends, so anyone can check that the deal never changed.
dm-game-started = Your { $variant } game { $game } against { $opponent } has started. You play { $side }.
dm-secret-captures = This game is played with secret captures: nobody, not even the capturer, learns what a captured covered piece was until the game ends and the whole deal is shown. /peek shows your own view of the board at any time.
dm-reveals-here = When you capture a covered piece, I will tell you here, privately, what it was. /peek shows your own view of the board at any time.

## Moves and boards

# The caption of a board after moves: one move, or several when a newer board stands in for
# boards that had not gone out yet (a fast game in a busy chat). $moves is one board-move or
# several joined by board-moves-separator.
board-moves = Game { $game } · { $moves }
board-move = { $number } { $move } by { $player }
board-moves-separator = {"; "}
board-to-move = { $player } to move.
board-check = Check!
board-repost = Game { $game }: { $first } against { $second }, { $plies ->
    [one] 1 ply played
   *[other] { $plies } plies played
}.
board-last-move = Last move: { $number } { $move }
board-final = Game { $game } is over.
dm-reveal = Game { $game }, move { $number } { $move }: the covered piece you captured was a { $piece }. Only you know this.

## Draws

draw-offered = { $player } offers a draw in game { $game }. { $opponent }: press the button or send /draw to accept; making a move declines.
draw-offer-accepted = { $player }'s draw offer in game { $game } was accepted.
draw-offer-lapsed = { $player }'s draw offer in game { $game } was declined by a move.
draw-offer-closed = { $player }'s draw offer in game { $game } is closed: the game is over.

## Results

result-head = Game { $game } is over.
result-win = { $winner } wins: { $reason }.
result-draw = Draw: { $reason }.
result-aborted = The game was aborted: it ended before both sides had moved. It is not rated.
result-aborted-rules = The game was called off: its moves no longer replay under the current rules. It is not rated.
result-aborted-no-first-move = The game was aborted: { $player } did not make a first move in time. It is not rated.
result-tournament-forfeit = { $player } did not make a first move in time and loses by forfeit (tournament { $id }). It is not rated.
result-proof = The deal was { $deal } with salt { $salt }. Its letters name the hidden pieces in order (upper case Red, lower case Black); square by square:
result-record = Moves of game { $game }: { $moves }
reason-checkmate = checkmate
reason-no-legal-move = the opponent has no legal move
reason-resignation = the opponent resigned
reason-timeout = the opponent ran out of time
reason-perpetual-check = the opponent gave perpetual check
reason-perpetual-chase = the opponent chased perpetually
reason-agreement = agreed by both players
reason-no-progress = too many moves without a capture
reason-repetition = the same position came back too often
reason-timeout-cannot-mate = time ran out, but the other side could not mate

## Lists and views

games-here = Games in this chat:
games-none-here = No game is being played in this chat. Start one with /challenge.
games-yours-elsewhere = Your games in other chats:
games-line = { $game }: { $variant }, { $plies ->
    [one] 1 ply
   *[other] { $plies } plies
}, { $player } to move
history-head = Game { $game }: { $first } against { $second }
history-moves = Moves: { $moves }
history-fen = Public FEN: { $fen }
history-gif = Game { $game }, move by move.
peek-text = Your view of game { $game } (you play { $side }). FEN: { $fen }
peek-sent-privately = I sent your view to you in a private message.
watch-started = This chat now follows game { $game } ({ $first } against { $second }). /unwatch stops it.
watch-stopped = This chat no longer follows: { $games }.
stats-head = Ratings of { $player }:
stats-line = { $variant }, { $speed }: { $rating } ± { $deviation } ({ $wins } won, { $losses } lost, { $draws } drawn)
stats-none = No rated games yet.
leaderboard-head = { $variant } leaderboard of this chat:
leaderboard-empty = Nobody has finished a rated { $variant } game here yet.
speed-bullet = Bullet
speed-blitz = Blitz
speed-rapid = Rapid
speed-classical = Classical
speed-correspondence = Correspondence
leaderboard-speed = { $speed }:
leaderboard-empty-speed = Nobody has finished a rated { $variant } game at { $speed } here yet.
result-ratings-speed = New ratings ({ $speed }): { $changes }.
option-leaderboard-speed = Which speed (default every speed played)
refuse-leaderboard-word = “{ $word }” is neither a game (jieqi, xiangqi, banqi) nor a speed (bullet, blitz, rapid, classical, correspondence).
leaderboard-line = { $rank }. { $player }: { $rating } ({ $games ->
    [one] 1 game
   *[other] { $games } games
})

## Settings

settings-current = Settings of this chat: language { $language }, pieces { $style }, board from { $orientation }'s side, notation { $notation }, board messages: { $board }, tournaments created by { $tournaments }, time zone { $zone }.
    Change one with /settings language en|zh|vi, /settings style characters|symbols, /settings orientation red|black, /settings notation wxf|coordinates|chinese|traditional, /settings board new|edit, /settings tournaments admins|everyone, /settings timezone UTC+8.
    Your own private pictures: /settings my-style characters|symbols|chat, /settings my-orientation red|black|own.
settings-changed = Saved. Settings of this chat: language { $language }, pieces { $style }, board from { $orientation }'s side, notation { $notation }, board messages: { $board }, tournaments created by { $tournaments }, time zone { $zone }.
settings-personal = Saved, for you alone: your private pictures (/peek, reveals) show the pieces as { $style ->
        [chat] this chat does
        [characters] characters
       *[symbols] symbols
    }, { $orientation ->
        [own] from your own side
        [red] from Red's side
       *[black] from Black's side
    }.
refuse-settings-admins = Only this chat's admins can change its settings (Discord: Manage Server; Telegram: group administrators). Your own pictures are yours to choose: /settings my-style symbols, /settings my-orientation black.
refuse-setting-zone = “{ $value }” is not a time zone I can read: write its offset from UTC, between UTC-12 and UTC+14, as UTC+8, +7, UTC+05:30, UTC-3:30 or UTC.
refuse-setting-not-yet = That setting can be changed once every process of this bot runs the new release; the others work now.

## Guides

help-text = Commands:
    /challenge [@user] [jieqi|xiangqi|banqi] [red|black|random] [standard|pychess|tencent|vietnam] [secret-captures] [time like 30m, 24h, 2d]: challenge someone, or anyone. secret-captures: nobody, not even the capturer, learns a captured covered piece until the game ends.
    /accept, /decline, /cancel: answer or withdraw a challenge.
    /seek [3+2, 10m|30s, blitz…] [variant]: a quick game anyone here can take (3+2 by default). /rematch [id]: the same game again, colours swapped.
    /move h2e2 (also WXF C2.5 or Chinese 炮二平五; Banqi: c3 flips, c3c4 moves): play a move. With several games here: /move <id> h2e2.
    /board: the current board. /history [id]: the moves and FEN. /review [id]: a finished game's review.
    /resign, /draw: resign; offer a draw or accept one.
    /peek: your own view, privately. /games: the games here and yours.
    /play bot [novice|casual|club|master] [jieqi|xiangqi|banqi] [red|black|random] [secret-captures]: a game against me, the built-in engine (not rated).
    { play-levels }
    /puzzle [jieqi|xiangqi|banqi]: a puzzle at your puzzle rating; answer with /move. In a group anyone may answer. /puzzle daily 18 (admins): a puzzle every day at 18:00 UTC; /puzzle daily off stops it.
    /watch <id>, /unwatch: follow a game of another chat.
    /rules [variant]: the rules in short. /stats [@user], /leaderboard [variant] [speed]: ratings (bullet, blitz, rapid, classical, correspondence).
    /settings: language, piece style, orientation, notation, board messages, who creates tournaments, time zone.
    /learn: the rules course, lesson by lesson, answered with /move (/learn list, /learn <number>, /learn restart, /learn stop).
    /tournament: a tournament in this chat (admins, unless /settings tournaments everyone: /tournament swiss 5 rounds 3+2 at 20:00; then join, start, standings, bye, withdraw, trf).
start-greeting = Hello! I referee Jieqi, Xiangqi and Banqi games in group chats, and I will send you your private reveals here. Add me to a group and send /challenge there. /help lists the commands.
rules-xiangqi = Xiangqi (Chinese chess): capture the enemy general. The general and advisors stay in the palace, elephants stay on their side of the river and are blocked by a piece on their eye, a horse is blocked by a piece next to it, a cannon captures by jumping over exactly one piece, soldiers move sideways once across the river. The generals may never face each other on an open file. A side with no legal move loses.
rules-jieqi = Jieqi: Xiangqi with covered pieces. Apart from the generals, every piece starts face down and shuffled on its side's start points. A covered piece moves as the piece of the point it stands on; its first move turns it face up, and from then on it moves as what it really is (revealed advisors and elephants may go anywhere on the board). If you capture a covered piece, only you learn what it was, in a private message; under the secret-captures option (the “nobody sees” reading) not even you do. When the game ends the whole deal is shown, with a proof that it never changed.
rules-revised = Game { $game } started under rules revision { $from } and goes on under revision { $to }, which changed this: { $changes }
rules-banqi = Banqi (half-board chess): all 32 pieces start face down on a 4 × 8 board. On your turn flip a piece, move one of your face-up pieces one square, or capture. The first flip gives the first player that colour. Pieces capture equal or lower ranks (general, advisor, elephant, chariot, horse, cannon, soldier), but a soldier captures the general and the general cannot capture soldiers. A cannon captures by jumping over exactly one piece. You win when your opponent has no legal move.

## Refusals

refuse-unknown-command = I do not know { $command }. /help lists the commands.
refuse-usage = Write it like this: { $usage }
refuse-bad-game-id = “{ $id }” is not a game id (ids look like g7k2; /games lists them). Write it like this: { $usage }
refuse-bad-challenge-id = “{ $id }” is not a challenge id (they look like c4f7k and are shown with the challenge). Write it like this: { $usage }
refuse-no-such-game = There is no game { $game }. /games lists the games here and yours.
refuse-no-game-here = No game of yours is being played here. Start one with /challenge.
refuse-not-a-player = You are not a player in game { $game }, so you cannot move, resign or offer a draw there. You can watch it, or start your own with /challenge.
refuse-not-a-player-here = You are not a player in the games here ({ $games }). Start your own with /challenge.
refuse-several-games = You have several games here ({ $games }): say which one, for example { $usage }
refuse-game-over = Game { $game } is already over: { $result } Start a new one with /challenge.
refuse-board-old = This board is old: game { $game } has moved on. { $state } Use the buttons under the newest board.
refuse-not-your-turn = It is not your turn: { $player } is to move. I will mention you when it is your turn.
refuse-move-missing = Which move? For example /move h2e2.
refuse-unknown-notation = I cannot read “{ $text }” as a move. Write coordinates like h2e2, WXF like C2.5, or Chinese like 炮二平五.
refuse-unknown-notation-banqi = I cannot read “{ $text }” as a Banqi move. Write a square to flip it, like c3, or two squares to move or capture, like c3c4.
refuse-illegal-move = That move is not allowed: { $reason }.
refuse-move-not-played = That move cannot be played: { $reason }.
refuse-challenge-option = I do not understand “{ $option }” in a challenge. Use a variant (jieqi, xiangqi, banqi), a colour (red, black, random), rules (standard, pychess, tencent, vietnam), secret-captures, or a time per move (30m, 24h, 2d).
refuse-option-after-upgrade = “{ $option }” becomes available once every copy of this bot runs its new version (an upgrade is under way). Try again in a few minutes, or leave it out.
refuse-play-usage = To play against me write /play bot, optionally with a level (novice, casual, club, master), a variant (jieqi, xiangqi, banqi), a colour (red, black, random) or rules, for example /play bot club jieqi red. { play-levels }
play-levels = How strong the levels are, against the engine Fairy-Stockfish in Xiangqi at 200 ms a move: novice plays about as its Skill Level 1 to 2, casual about 5 to 6, club about 10 to 15, master about as 20, Fairy-Stockfish's full strength; on the Elo scale, with that full strength at 0, novice is roughly −980, casual −540, club −225 and master 0 (master scores 75 % against 15 and 50 % against 20, also with 1 s a move each; the figures vary with the machine).
refuse-play-option = I do not understand “{ $option }” in /play bot. Use a level (novice, casual, club, master), a variant (jieqi, xiangqi, banqi), a colour (red, black, random), rules (standard, pychess, tencent, vietnam) or secret-captures.
refuse-play-has-game = You are already playing game { $game } against me here. Finish it (or /resign) before starting another.
refuse-challenge-time = “{ $time }” is not a time I can use{ $reason ->
        [initial] : the game time of minutes + increment is whole minutes from 1 to 180
        [increment] : the increment is whole seconds from 0 to 180
        [main] : the game time before byo-yomi is at most 3 hours
        [period] : a byo-yomi period is 5 s to 10 minutes
        [periods] : byo-yomi has 1 to 5 periods
        [per-move] : a time per move is whole minutes from 1 minute to 30 days
       *[other] {""}
    }. Write a game clock, minutes + increment (3+2) or game time then seconds a move (10m|30s, or 10m|3x30s for three periods); a time per move (30m, 1d); or a preset: bullet (1+0), blitz (3+2), rapid (10+5), classical (30+20).
refuse-challenge-two-users = A challenge is for one person (or for anyone, if you name nobody).
refuse-challenge-private = Challenges are made in a group chat, where your opponent can see them. Add me to a group and send /challenge there.
refuse-challenge-self = You cannot challenge yourself. Name someone else, or name nobody to let anyone accept.
refuse-challenge-exists = You already challenged { $opponent } here: challenge { $challenge }, { $variant }, { $time }. Wait for an answer, or withdraw it with /cancel { $challenge } and challenge again.
refuse-unknown-user = I cannot tell who { $handle } is. Mention them so the platform resolves them: on Discord pick the user in the command's option; on Telegram reply to one of their messages with /challenge.
refuse-pair-has-game = You and { $player } already have a game in this chat ({ $game }). Finish it first, or play in another chat.
refuse-no-such-challenge = There is no open challenge { $challenge }: it was taken, withdrawn or has expired.
refuse-no-challenge-for-you = There is no open challenge for you here. Send /challenge to make one.
refuse-several-challenges = Several challenges are open for you ({ $challenges }): say which one, for example /accept { $example }
refuse-challenge-expired = Challenge { $challenge } has expired. Send /challenge to make a new one.
refuse-accept-own = That is your own challenge: someone else has to accept it. /cancel withdraws it.
refuse-challenge-not-for-you = This challenge is for { $player }, not for you. Send /challenge to make your own.
refuse-decline-open = Anyone may take an open challenge, so there is nothing to decline; only { $challenger } can withdraw it, with /cancel.
refuse-cancel-not-yours = Only { $challenger } can withdraw that challenge.
refuse-nothing-to-cancel = You have no open challenge here to withdraw.
refuse-draw-already-offered = You have already offered a draw; it is up to { $player } to accept it.
refuse-peek-no-colour = Nobody has a colour yet: the first flip decides it. Flip a piece first.
refuse-watch-finished = Game { $game } is over; /history { $game } shows it.
refuse-watch-home = Game { $game } is played in this chat already.
refuse-already-watching = This chat already follows game { $game }.
refuse-not-watching = This chat follows no game of another chat. /watch <id> starts following one.
refuse-not-watching-game = This chat does not follow game { $game }.
refuse-unknown-variant = I do not know the variant “{ $variant }”: choose jieqi, xiangqi or banqi.
refuse-setting-name = There is no setting “{ $name }”: choose language, style, orientation, notation, board, tournaments or timezone.
refuse-setting-value = “{ $value }” is not a choice for { $name }: choose { $choices }.

## Problems

unreachable-player = I could not send { $player } a private message, so they will miss their private reveals. { $player }: { $fix } Then /peek shows your own view.
unreachable-fix-telegram = open a private chat with @{ $bot } and press Start.
unreachable-fix-discord = allow direct messages from members of this server (Privacy settings), or send me a direct message.
unreachable-fix-local = open your private channel.
error-store = Something went wrong on my side while saving this. Nothing was changed: please try again in a moment.
error-busy = Too many changes to this game at once. Nothing was changed: please try again.
error-not-through = That did not go through, and nothing was changed: please send it again.
error-internal = Something went wrong on my side. Please try again.

## Command list: one line per command, shown by chat clients' command menus
## (Telegram setMyCommands, Discord slash command descriptions). At most 100 characters.

command-challenge = Challenge someone, or anyone, to a game
command-accept = Accept a challenge
command-decline = Decline a challenge
command-cancel = Withdraw your challenge
command-move = Play a move, e.g. /move h2e2
command-board = Show the current board
command-resign = Resign your game
command-draw = Offer a draw, or accept one
command-games = The games here and yours
command-watch = Follow a game of another chat: /watch <id>
command-unwatch = Stop following a game
command-history = The moves and FEN of a game
command-peek = Your own view of your game, privately
command-play = Play against the built-in engine (novice, casual, club or master; not rated)
engine-name = Jieqi bot ({ $level })
command-rules = The rules in short
command-help = The commands
command-stats = Ratings and record of a player
command-leaderboard = The ratings table of this chat
command-settings = Language, piece style, orientation, notation

## Telegram adapter
button-not-ours = This button is not one of mine any more: use the commands instead (/help).

## Players' experience (service)

resign-confirm = Do you really want to resign game { $game }? Press the button, or send /resign again within a minute, to confirm.
button-resign-confirm = Yes, resign
board-deadline = Move by { $time } ({ $left } left).
time-per-move = { $time } per move
time-clock = { $control } clock
board-clocks = ⏱ { $first } { $first-time } · { $second } { $second-time }
refuse-time-is-up = Time is up: your clock ran out before that move, so the game is over on time.
refuse-first-move-too-late = Too late: in a game with a clock each side makes its first move within { $seconds } seconds, so the game was aborted. It is not rated.
refuse-clock-not-yet = Games with a clock start once every process of this bot runs the new release; a time per move (30m, 1d) works now.
reminder-to-move = { $player }, it is your move in game { $game }: only { $left } left, until { $time }. Without a move you lose on time.
result-ratings = New ratings: { $changes }.
rating-change = { $player } { $rating } ({ $change })
refuse-move-extra-words = I read { $move } as a whole move, but “{ $extra }” after it is not part of a move. Send just /move { $move }.
refuse-board-too-soon = The board of game { $game } was just posted here. Ask again in { $seconds ->
    [one] 1 second
   *[other] { $seconds } seconds
}.
result-deal-pieces = { $side }: { $pieces }
result-verify = Check the commitment posted at the start: it is sha256 of the deal letters followed directly by the salt, as plain ASCII bytes ({ $bytes }). This command must print { $commitment }: printf %s '{ $bytes }' | sha256sum
challenge-colour-banqi-first = the first flip decides colours; { $challenger } flips first
challenge-colour-banqi-second = the first flip decides colours; { $challenger } flips second
challenge-colour-banqi-random = the first flip decides colours; a coin toss decides who flips first
refuse-xiangqi-move-suffix = In Xiangqi nothing is covered, so a move is only its two points, like h2e2; “{ $text }” has more after them.

## Puzzles

command-puzzle = A puzzle at your puzzle rating, answered with /move (admins: /puzzle daily 18)
stats-puzzles = Puzzles: { $rating } ± { $deviation } ({ $solved } solved, { $failed } failed; streak { $streak }, best { $best })
puzzle-task-mate = { $side } to move: mate in { $moves }
puzzle-task-material = { $side } to move and win material
puzzle-task-reveal = { $side } to move and win material, whatever the covered pieces are
puzzle-task-defence = { $side } to move: find the only move that holds
puzzle-posted = Puzzle { $id } ({ $variant }, rated { $rating }): { $task }. Answer with /move, for example /move { $example }.
puzzle-covered = Covered pieces stay covered: nobody knows them yet, and the answer works whatever they are.
puzzle-posted-daily = Today's puzzle { $id } ({ $variant }, rated { $rating }): { $task }. Anyone may answer with /move, for example /move { $example }; the first right line solves it.
puzzle-replaced = Puzzle { $id } ends unsolved. Solution: { $solution }
puzzle-continue = { $player } played { $move }: right! I answer { $reply }. { $side } to move again.
puzzle-solved = { $player } solved puzzle { $id } with { $move }! Solution: { $solution }. Puzzle rating of { $player }: { $rating } ({ $change }), streak { $streak }.
puzzle-failed = { $move } is not it: the move was { $expected }. Solution of puzzle { $id }: { $solution }. Your puzzle rating: { $rating } ({ $change }). /puzzle for another.
puzzle-failed-off-line = { $move } does not finish the task. Solution of puzzle { $id }: { $solution }. Your puzzle rating: { $rating } ({ $change }). /puzzle for another.
puzzle-wrong-in-group = { $move } is not it, so puzzle { $id } counts as failed for you: your puzzle rating is { $rating } ({ $change }). The others may still solve it; you will see the solution when it ends.
puzzle-daily-is = This chat gets a daily puzzle at { $hour } UTC (next: { $next }). /puzzle daily off stops it.
puzzle-daily-none = This chat gets no daily puzzle. An admin can start one with /puzzle daily 18 (the hour in UTC).
puzzle-daily-set = This chat now gets a puzzle every day at { $hour } UTC; the first comes at { $next }.
puzzle-daily-off = No more daily puzzles here.
refuse-puzzle-daily-hour = “{ $hour }” is not an hour: write /puzzle daily with an hour from 0 to 23 (UTC), like /puzzle daily 18, or /puzzle daily off.
refuse-puzzle-option = I do not understand “{ $option }” in /puzzle. Write /puzzle, or /puzzle jieqi, /puzzle xiangqi, /puzzle banqi.
refuse-puzzle-unavailable = I have no puzzle of that kind to give right now. Try another variant, like /puzzle xiangqi.
refuse-no-puzzle = There is no puzzle open here. /puzzle gives you one.
refuse-puzzle-failed-already = Your answer to puzzle { $id } was already wrong, so you cannot answer it again. Wait for the others, or ask for your own with /puzzle in a private chat with me.
refuse-puzzle-over = You have no game here, and puzzle { $id } is over. /puzzle gives you a new one; /challenge starts a game.
refuse-puzzle-reveal-typed = Write the move without what the covered piece is (nobody knows it yet): /move { $move }
refuse-puzzle-not-a-move = “{ $text }” is not a move in this puzzle ({ $reason }). Write coordinates like h2e2, WXF like C2.5, or Chinese like 炮二平五.
refuse-puzzle-not-a-move-banqi = “{ $text }” is not a move in this puzzle ({ $reason }). Write a square to flip it, like c3, or two squares to move or capture, like c3c4.
refuse-puzzle-daily-admin = Only the chat's admins can set the daily puzzle. /puzzle gives you a puzzle now.

## The game's web page
button-watch-live = Watch live
button-replay = Replay
web-title = Game { $game }
web-moves = Moves
web-start = Start
web-first = First position
web-previous = Previous move
web-next = Next move
web-last = Latest position
web-live = Live
web-reconnecting = Reconnecting…
web-time-left = Time to move
web-over = The game is over.
web-deal = The deal
web-commitment = Commitment published at the start
web-check-ok = Checked in your browser: sha256 of the deal and salt is the commitment published at the start, so the deal was fixed before the first move.
web-check-bad = Checked in your browser: sha256 of the deal and salt is NOT the commitment published at the start.
web-check-unavailable = Your browser cannot compute sha256 here; check it with the command below.
web-not-found = There is no game { $game } here. Check the link, or ask in the chat with /games.
web-bad-id = “{ $text }” is not a game id: a game id has four letters and digits, like g7k2.
web-too-many = Too many live pages are open from your address. Close some and try again.
web-keys = Keys: ← → step through the moves, Home and End jump to the start and the latest.
web-no-page = There is nothing here. A game's page is /g/ followed by its id, like /g/g7k2: the chat's board posts link to it.
web-tournament-title = Tournament { $id }
web-tournament-summary = { $format }, { $variant }, { $time }. { $state ->
        [open] Open for entries
        [arena] Arena running until { $end }
        [running] Round { $round } of { $rounds }
        [finished] Finished
       *[other] Called off
    } · { $count ->
        [one] 1 player
       *[other] { $count } players
    }
web-tournament-standings = Standings
web-tournament-rank = Rank
web-tournament-player = Player
web-tournament-points = Points
web-tournament-round = Round { $round }
web-tournament-board = Board
web-tournament-red = Red
web-tournament-black = Black
web-tournament-result = Result
web-tournament-playing = playing: watch
web-tournament-no-rounds = No round has been paired yet.
web-tournament-follows = This page follows the tournament: it shows each result as the game ends.
web-tournament-not-found = There is no tournament { $id } here. Check the link, or ask in the chat with /tournament.
web-tournament-bad-id = “{ $text }” is not a tournament id: a tournament id has six letters and digits, like t4f7k2.

## Reviews (/review) and the PGN record
button-review = Review the game
command-review = A finished game's review: graph, costliest moves, accuracy
review-head = Review of game { $game }: { $first } against { $second }
review-judged = Each move is judged by the engine against its best move in that position.
review-judged-hidden = Each move is judged from what its player knew when making it: covered pieces count by their odds, never by what they turned out to be.
review-player = { $player }: accuracy { $accuracy }% · { $blunders } blunders, { $mistakes } mistakes, { $inaccuracies } inaccuracies
review-costly = { $number } { $player } played { $played }; the engine preferred { $best }. Cost: { $drop } points of win chance ({ $judgement }). The board as { $player } saw it.
review-good = good
review-inaccuracy = an inaccuracy
review-mistake = a mistake
review-blunder = a blunder
review-queued = Reviewing game { $game } { $ahead ->
    [0] now
    [one] after 1 other review
   *[other] after { $ahead } other reviews
}; it will be posted here.
review-already-queued = Game { $game } is already being reviewed ({ $ahead ->
    [0] next
   *[other] { $ahead } ahead of it
}); it will be posted here.
refuse-review-queue-full = Too many reviews are waiting; please ask again in a few minutes.
review-failed = Game { $game } could not be reviewed; its record cannot be read.
refuse-review-nothing-finished = No game has finished in this chat yet: give a game id, for example /review g7k2.
refuse-review-not-finished = Game { $game } has not finished (or was aborted), so there is nothing to review yet.
history-pgn = Game { $game } as PGN, for other Xiangqi programs.
history-pgn-jieqi = Game { $game } as PGN: the Jieqi moves, what each reveal showed and the deal, for programs that know Jieqi (Fairy-Stockfish reads it).

## Command options and subcommands: descriptions Discord shows beside each option of a slash
## command. At most 100 characters.

option-challenge-user = Who to challenge (nobody: anyone may accept)
option-variant = Which game (default Jieqi)
option-colour = Your colour (default random)
option-rules = Rules preset (default standard)
option-captures = Jieqi: nobody sees a captured covered piece until the end (default: the captor does)
option-time = A game clock for a live game (3+2) or a time per move (default 1 day per move)
option-clock = A game clock for a live game (3+2); without one, 1 day per move
option-challenge = The challenge's id
option-move = h2e2, C2.5 or 炮二平五 (Banqi: c3 flips, c3c4 moves)
option-game = The game's id (see /games)
option-level = How strong the engine plays (default casual)
option-rules-variant = Which game
option-stats-user = Whose (default: yours)
option-lesson = A lesson number, or list, restart or stop (nothing: go on)
option-hour = The hour (UTC), or off; leave it out to see the setting
option-value = The new value
subcommand-settings-show = Show the settings
subcommand-settings-language = The chat's language
subcommand-settings-style = How pieces are drawn
subcommand-settings-orientation = Which side public boards are drawn from
subcommand-settings-notation = How moves are written
subcommand-settings-board = A new message per move, or one edited message
subcommand-settings-tournaments = Who may create a tournament here
subcommand-settings-timezone = The chat's time zone, for tournament start times
choice-tournaments-admins = Admins only
choice-tournaments-everyone = Everyone
option-timezone = An offset from UTC: UTC+8, +7, UTC-3:30, UTC
subcommand-puzzle-new = A puzzle at your puzzle rating (anyone here may answer)
subcommand-puzzle-daily = Admins: one puzzle a day in this channel at an hour you choose
choice-variant-jieqi = Jieqi (揭棋): covered pieces
choice-variant-xiangqi = Xiangqi (象棋)
choice-variant-banqi = Banqi (半棋): dark chess
choice-level-novice = Novice
choice-level-casual = Casual
choice-level-club = Club
choice-level-master = Master
choice-colour-red = Red
choice-colour-black = Black
choice-colour-random = Random
choice-rules-standard = Standard
choice-rules-tencent = Tencent
choice-rules-vietnam = Vietnam
choice-time-10m = 10 minutes
choice-time-1h = 1 hour
choice-minutes-20 = 20 minutes
choice-minutes-30 = 30 minutes
choice-minutes-45 = 45 minutes
choice-minutes-90 = 1½ hours
choice-minutes-120 = 2 hours
choice-time-6h = 6 hours
choice-time-1d = 1 day
choice-time-3d = 3 days
choice-time-7d = 7 days
choice-time-bullet = Bullet 1+0: 1 minute each, live
choice-time-blitz = Blitz 3+2: 3 minutes + 2 s a move, live
choice-time-rapid = Rapid 10+5: 10 minutes + 5 s a move, live
choice-time-classical = Classical 30+20: 30 minutes + 20 s a move, live
choice-time-byoyomi = 10 minutes, then 30 s a move (byo-yomi), live
choice-captures-secret = Nobody sees a captured covered piece (secret-captures)
choice-hour-off = Off
choice-style-characters = Characters (帥仕相)
choice-style-symbols = Symbols
choice-orientation-red = Red at the bottom
choice-orientation-black = Black at the bottom
choice-notation-coordinates = Coordinates (h2e2)
choice-notation-chinese = Chinese (炮二平五 马二进三)
choice-notation-traditional = Chinese, traditional (炮二平五 傌二進三)
choice-board-new = A new message per move
choice-board-edit = One edited message

## Playing on the web board (personal links, the Telegram Mini App)
button-open-board = Open the board
button-play-on-board = Play on the board
button-my-board = Open my board
board-link-private = Your own board for game { $game }: tap the pieces to play. This link is yours alone and lets whoever holds it play as you in this game for { $hours } hours, so do not share it.
local-personal-link = { $player }'s board (play by tapping): { $link }
refuse-board-link-over = Game { $game } is over: its replay is on the board's page, and there is nothing left to play.
refuse-board-link-public = A personal board link would be seen by everyone here: use the "Open the board" button, or ask me in a private chat.
refuse-board-link-off = Playing on the web board is not set up on this bot (its operator has not set PUBLIC_URL and WEB_SECRET). Play here with /move.
web-known = Move { $number } { $move }: the covered piece you captured was a { $piece }.
web-known-title = Only you know
web-you = you
web-your-move = Your move: tap a piece, then where it goes.
web-their-move = Your opponent is to move.
web-resign-sure = Really resign? This ends the game.
web-cancel = Cancel
web-sending = Sending…
web-offline = The move did not reach the bot (no connection). Tap it again to retry.
web-too-fast = Too many actions at once: wait a few seconds and try again.
web-confirm-moves = Confirm each move before it is sent
web-confirm-play = Play it
web-signed-out = This board link is not valid any more (it expired, or it is for another game or person). Ask for a new one with the board's button or /board. Meanwhile you are watching as a spectator.
web-not-playing = You do not play in this game: you are watching it.
web-unauthorized = Your board link or Telegram sign-in is not valid here. Open the board again from the chat.
web-bad-action = The board sent something the bot does not understand: { $reason }

## The Discord Activity (the board inside Discord)
button-play-in-discord = Play in Discord
activity-title = Jieqi in Discord
activity-signing-in = Signing in with Discord…
activity-sign-in-failed = Discord did not sign you in. Close the Activity and open it again.
activity-outside = This is the bot's Discord Activity: open it from Discord (the app launcher, /launch, or "Play in Discord" under a board).
activity-signed-in-as = Signed in as
activity-your-games = Your games
activity-channel-games = Games in this channel
activity-finished-games = Finished here
activity-no-games = No games here yet: start one with New game.
activity-play = Play
activity-watch = Watch
activity-replay = Replay
activity-your-turn = your move
activity-new-game = New game
activity-opponent = Opponent
activity-the-bot = The bot
activity-variant = Variant
activity-send = Challenge
activity-sent = The challenge is in the channel, with Accept and Decline. Your board opens here once it is accepted.
activity-back = ← Games
activity-command = Open the board inside Discord: this channel's games, yours first

## Tournaments (/tournament)
tournament-created = Tournament { $id } by { $organiser }: { $format }, { $variant }, { $time }. Join with /tournament join.
tournament-format-swiss = Swiss, { $rounds ->
        [one] 1 round
       *[other] { $rounds } rounds
    }
tournament-format-round-robin = round robin{ $cycles ->
        [2] , double
       *[other] {""}
    }
tournament-joined = { $player } joined the tournament ({ $count ->
        [one] 1 player
       *[other] { $count } players
    }).
tournament-joined-late = { $player } joined the tournament late ({ $count } players): no points for the rounds missed, paired from round { $round }.
tournament-left = { $player } left the tournament: no more pairings for them (results so far stay).
tournament-cancelled = Tournament { $id } was called off by { $player }. Games already started are played out as ordinary games.
tournament-status = Tournament { $id }: { $format }, { $variant }, { $time }. { $state ->
        [open] Open for entries
        [arena] Arena running until { $end }
        [running] Round { $round } of { $rounds }
        [finished] Finished
       *[other] Called off
    }. { $count ->
        [0] No players yet.
        [one] 1 player: { $players }
       *[other] { $count } players: { $players }
    }
tournament-pairings = Round { $round } of { $rounds }: the pairings. Each game is played here like any game; your private notice tells you your colour.
tournament-board = Board { $board }: { $first } (red) – { $second } (black), game { $game }
tournament-bye-point = { $player } has the bye (1 point).
tournament-bye-half = { $player } has a half-point bye.
tournament-bye-zero = { $player } sits this round out (no points).
tournament-standings-title = Tournament { $id } · round { $round } of { $rounds }
tournament-standings-after = Standings after round { $round } of { $rounds }:
tournament-standings-now = Standings, round { $round } of { $rounds }:
tournament-finished = The tournament is over. { $count ->
        [0] No game ended in time: nobody won.
        [one] The winner: { $winners }!
       *[other] Shared first place: { $winners }!
    }
tournament-stopped = The tournament stops here: { $reason ->
        [too-few] fewer than two players are left to pair.
        [no-legal-pairing] no pairing of the next round obeys the rules (players would meet twice).
       *[other] the next round could not be paired.
    }
tournament-no-pairing = The next round could not be paired.
tournament-trf = Tournament { $id } in FIDE's TRF-16 format.
tournament-page = Pairings, standings and every game live: { $url }
refuse-tournament-word = “{ $word }” is not a tournament command. Use: { $usage }
refuse-tournament-rounds = “{ $rounds }” rounds cannot be played: a Swiss has 1 to { $max } rounds.
refuse-tournament-option = “{ $option }” is not a tournament option. Use: { $usage }
refuse-tournament-private = Tournaments are run in a group chat, where the players are. Send /tournament there.
refuse-tournament-admins = Only this chat's admins can create a tournament (Discord: Manage Server; Telegram: group administrators). An admin can let everyone create them: /settings tournaments everyone.
refuse-tournament-exists = This chat already has tournament { $id }: /tournament shows it. A chat runs one at a time.
refuse-no-tournament = There is no tournament in this chat. An admin creates one: { $usage }
refuse-tournament-joined = You are in this tournament already.
refuse-tournament-withdrawn = You withdrew from this tournament; you cannot join it again.
refuse-tournament-too-late = It is too late to join: every round has been paired (a round robin takes no late entries).
refuse-tournament-full = This tournament is full ({ $max } players).
refuse-tournament-elsewhere = You play in tournament { $id } in another chat: one tournament at a time, so that you never play two tournament games at once.
refuse-tournament-not-in = You are not in this tournament.
refuse-tournament-round-robin-withdraw = A round robin's pairings are fixed once it starts: resign your games instead of withdrawing.
refuse-tournament-organiser = Only { $organiser } (who created it) or a chat admin can do that.
refuse-tournament-started = The tournament has started already.
refuse-tournament-too-few-swiss = A Swiss of { $rounds } rounds needs at least { $needed } players, so that nobody meets the same opponent twice; { $count } joined.
refuse-tournament-too-few = A tournament needs at least 2 players; { $count } joined.
refuse-tournament-trf-swiss = TRF-16 is the format of Swiss tournaments, and this one is not: /tournament standings shows it.
command-tournament = A tournament in this chat: create, join, start, standings
subcommand-tournament-status = Where this chat's tournament stands
subcommand-tournament-swiss = Admins: create a Swiss tournament
subcommand-tournament-round-robin = Admins: create a round robin (up to 12 players)
subcommand-tournament-arena = Admins: create an arena (paired again as each game ends, for a fixed time)
subcommand-tournament-join = Join this chat's tournament
subcommand-tournament-leave = Leave the tournament before it starts
subcommand-tournament-start = Organiser or admins: start it and pair round 1
subcommand-tournament-standings = The standings table
subcommand-tournament-withdraw = Take no more pairings (results so far stay)
subcommand-tournament-trf = The Swiss as a TRF-16 file
subcommand-tournament-cancel = Organiser or admins: call the tournament off
option-rounds = Rounds, 1 to 30 (5 if none)
option-cycles = Single (everyone once) or double (twice, colours reversed)
option-minutes = Minutes (60 if none)
choice-cycles-single = Single
choice-cycles-double = Double
refuse-tournament-over = Tournament { $id } is over: /tournament standings and /tournament trf still show it, and a new one may be created.
button-tournament-join = Join
button-tournament-leave = Leave
tournament-starts-at = It starts by itself at { $at } (in { $left }); { $rated ->
        [unrated] its games are not rated.
       *[rated] its games are rated in their speed.
    }
tournament-starts-by-hand = { $organiser } or an admin starts it with /tournament start; { $rated ->
        [unrated] its games are not rated.
       *[rated] its games are rated in their speed.
    }
tournament-not-started = Tournament { $id } did not start at its time: { $reason } { $organiser } or an admin can start it with /tournament start, or call it off with /tournament cancel.
refuse-tournament-start-time = “{ $time }” is not a start time I can use: a time of day in this chat's time zone (at 20:00; /settings shows the zone) or a delay (in 30m, in 2h), at most { $days } days ahead.
tournament-bye-asked = { $player } takes a half-point bye in round { $round }.
refuse-tournament-bye-swiss = Only a Swiss gives a half-point bye: a round robin's pairings are fixed, and an arena has no rounds.
refuse-tournament-bye-twice = You had your half-point bye in this tournament already (one per player).
refuse-tournament-bye-late = Every round has been paired: there is no next round to take a bye in.
tournament-forfeit = { $player } did not make a first move in game { $game }: lost by forfeit ({ $count ->
        [one] first forfeit
       *[other] { $count } forfeits
    }).
tournament-withdrawn-absent = You lost { $count } games of tournament { $id } by forfeit (no first move), so you are withdrawn: no more pairings. Your results so far stay.
tournament-standings-final = The tournament is over and its standings change no more: the final post above has their picture. Round { $round } of { $rounds }:
tournament-format-arena = arena of { $minutes ->
        [one] 1 minute
       *[other] { $minutes } minutes
    }
refuse-arena-minutes = An arena of “{ $minutes }” minutes cannot be run: an arena lasts 1 to { $max } minutes.
refuse-arena-over = The arena is over: no more games start. The final standings come with its last post.
arena-started = Arena { $id } has started: { $minutes } minutes, until { $end }. When your game ends you are paired again with whoever waits; 2 points a win, 1 a draw, double after two wins in a row 🔥. Join at any time with /tournament join.
arena-joined = { $player } joined the arena ({ $count } players): paired with a free player, now or when a game ends.
arena-back = { $player } is back in the arena: paired again from now on (points so far kept).
arena-pairings = Arena { $id }, new games (your private notice tells you your colour):
arena-game = { $first } (red) – { $second } (black), game { $game }
arena-ended-playing = Time is up. { $count ->
        [one] 1 game still being played does not count (it is played out as an ordinary game).
       *[other] { $count } games still being played do not count (they are played out as ordinary games).
    }
arena-withdrawn-absent = You did not make a first move in game { $game } of arena { $id } and lost it by forfeit, so you are out of the pairing. Join again with /tournament join to play on.
arena-standings-title = Arena { $id } · { $state ->
        [over] final
       *[running] until { $end }
    }
arena-standings-now = Arena standings (points, 🔥 on a streak: the next game counts double), until { $end }:
arena-standings-final = The arena is over and its standings change no more: the final post above has their picture.
arena-standings-open = The arena has not started: no games, no standings yet.
web-arena-games = Games
subcommand-tournament-bye = Take a half-point bye in the next round (a Swiss, once)
option-start = Start time: 20:00 (this chat's time zone) or in 30m; without it, a manual start
option-rated = Rated (in the games' speed, the default) or unrated
choice-rated = Rated
choice-unrated = Unrated
