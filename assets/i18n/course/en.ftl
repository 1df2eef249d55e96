# The rules course (/learn): lesson texts and the course's own messages.
# Points are named as in /move: files a–i from Red's left, ranks 0–9 from Red's side.

## The course around the lessons

learn-welcome = Welcome to the Jieqi course! Ten short lessons, each a task on the board. Answer with /move (for example /move b0c2). /learn list shows the lessons, /learn <number> jumps to one, /learn restart starts over, /learn stop pauses.
command-learn = The rules course: short lessons answered with /move
learn-resume = Welcome back: here is where you left off.
learn-heading = Lesson { $number }/{ $total }: { $title } (step { $step }/{ $steps })
learn-correct = ✅ { $explanation }
learn-wrong = Not this one. { $hint }
learn-next-lesson = Lesson { $number } done!
learn-finished = 🎓 You have finished the course! Challenge someone with /challenge, or play the engine with /play bot. /learn restart goes through it again.
learn-finished-already = You have finished the course already. /learn restart goes through it again, /learn <number> opens one lesson.
learn-list = The lessons (✓ done, ▶ where you are):
    { $lessons }
    Open one with /learn <number>.
learn-stopped = Course paused. /learn picks it up where you left off.
learn-not-started = You have not started the course yet: /learn starts it.
refuse-learn-usage = Use /learn, /learn <number> (1 to { $total }), /learn list, /learn restart or /learn stop.
refuse-learn-no-such-lesson = There is no lesson { $number }: choose 1 to { $total }.

## Lesson 1: covered pieces

course-covered-title = A covered piece moves as the piece of its point
course-covered-horse-task = In Jieqi every piece but the general starts face down, shuffled. A face-down piece moves as the piece whose start point it stands on. The one on b0 stands on a horse's point: jump it like a horse to c2.
course-covered-horse-hint = The piece on b0 is on a horse's point, so it jumps like a horse: one step straight, one diagonally. Type /move b0c2.
course-covered-horse-done = It jumped like a horse, and turned face up: it is really a chariot! Where it stands said how it could move; the deal decided what it is.
course-covered-cannon-task = The face-down piece on h2 stands on a cannon's point, so it captures like a cannon: jumping over exactly one piece. Take the black chariot on h9.
course-covered-cannon-hint = A cannon captures by jumping over one piece (here the soldier on h6) onto the piece behind it. Type /move h2h9.
course-covered-cannon-done = It captured as a cannon and turned out to be an advisor. A face-down piece moves and captures as its point says, with that piece's limits.

## Lesson 2: the reveal

course-reveal-title = The reveal
course-reveal-push-task = A face-down piece turns face up on its first move, and everyone sees what it is. Push the face-down piece on c3 (a soldier's point) one step forward.
course-reveal-push-hint = The piece on c3 stands on a soldier's point, so it steps one point forward. Type /move c3c4.
course-reveal-push-done = Surprise: it was a chariot! From now on it moves as what it really is. Black answered by moving the general to e8.
course-reveal-use-task = Your new chariot goes any distance in a straight line. Take the black horse on c9 with it.
course-reveal-use-hint = The chariot on c4 can run straight up the c-file. Type /move c4c9.
course-reveal-use-done = Well played. A revealed piece moves as its true type, wherever it turned up.

## Lesson 3: advisors and elephants set free

course-free-title = Revealed advisors and elephants are free
course-free-elephant-task = Once revealed, an elephant may cross the river. It still goes two points diagonally, and a piece on the point between (the eye) still blocks it. Take the black horse on g6 with the elephant on e4.
course-free-elephant-hint = The elephant on e4 goes two points diagonally; the eye f5 is free and the river no longer stops it. Type /move e4g6.
course-free-elephant-done = Across the river! In plain Xiangqi an elephant never leaves its own half; in Jieqi a revealed one may.
course-free-advisor-task = A revealed advisor may leave the palace: it steps one point diagonally, anywhere. Take the black soldier on c3 with the advisor on d2.
course-free-advisor-hint = The advisor on d2 steps one point diagonally, even out of the palace. Type /move d2c3.
course-free-advisor-done = Out of the palace! Only the general must stay inside. A face-down piece on an advisor's point still stays in the palace until it is revealed.

## Lesson 4: the flying general

course-flying-title = The flying general
course-flying-escape-task = The two generals may never face each other on a file with nothing between them. Black's chariot on e5 checks your general: get out of check.
course-flying-escape-hint = Your general can step to d1 or f1 — but on d1 it would face the black general on d9. Type /move e1f1.
course-flying-escape-done = Safe. A move that leaves the generals facing each other is illegal, so a general also guards its whole file.

## Lesson 5: capturing covered pieces

course-capture-title = Capturing a covered piece
course-capture-covered-task = You may capture face-down pieces. Take the face-down piece on b9 with your chariot.
course-capture-covered-hint = Your chariot on b4 runs straight up the b-file. Type /move b4b9.
course-capture-covered-done = Captured! Only you learn what it was — a cannon: in a game it comes in a private message, and your picture shows it in the tray. Your opponent and the chat see just a face-down piece.

## Lesson 6: check and mate

course-mate-title = Check and mate
course-mate-check-task = A check attacks the general. Give check with your chariot.
course-mate-check-hint = Put the chariot on the general's rank or file with nothing between. Try /move b1b9.
course-mate-check-done = Check! The general must get out of it: step away, block, or capture the checker. Here the general can step aside, so it is not mate.
course-mate-mate-task = Now your other chariot on a8 guards rank 8. Give check so that the general has nowhere to go: checkmate.
course-mate-mate-hint = The general cannot step up to rank 8 (the chariot on a8 holds it) nor sideways along rank 9. Type /move b1b9.
course-mate-mate-done = Checkmate: you win! A side with no legal move at all loses too, in check or not.

## Lesson 7: repetition and no progress

course-repetition-title = Repetition and the no-progress draw
course-repetition-check-task = Black has checked you with every move, back and forth. Step your general to e2: the same position then stands for the third time.
course-repetition-check-hint = e0 escapes too, but the lesson is the repetition: step to e2. Type /move e1e2.
course-repetition-check-done = Third time: the rules judge the cycle, and the side that checked with every move loses — you win. Chasing a piece forever loses too; if neither side is to blame it is a draw.
course-repetition-quiet-task = Nothing has been captured for 119 plies, almost 60 moves each. When 60 moves each (120 plies) pass without a capture the game is drawn, and revealing a piece does not reset the count. Keep the game alive: capture the soldier on b4.
course-repetition-quiet-hint = Any move that captures nothing is now the 120th ply without a capture, and draws the game. Take the soldier: /move b0b4.
course-repetition-quiet-done = The capture starts the count again, so the game goes on. That was the last Jieqi lesson: next comes Banqi.

## Lesson 8: Banqi flips

course-banqi-flip-title = Banqi: flips and colours
course-banqi-flip-task = Banqi is played on half a board, with all 32 pieces face down in the squares. Nobody has a colour yet: flip any piece, for example /move d2.
course-banqi-flip-hint = Flip a face-down piece by typing its square, such as /move d2.
course-banqi-flip-done = The colour you turned up is yours, and your opponent plays the other. From now on a turn is one of: flip any face-down piece, move one of yours one square, or capture.

## Lesson 9: Banqi ranks

course-banqi-ranks-title = Banqi: who captures whom
course-banqi-ranks-horse-task = Pieces capture by rank, onto a square next to them: general, advisor, elephant, chariot, horse, cannon, soldier. Your horse on c2 can take one of its neighbours: which one?
course-banqi-ranks-horse-hint = A horse takes pieces of its own rank or lower: the cannon on d2, not the chariot on c3. Type /move c2d2.
course-banqi-ranks-horse-done = Right: the horse outranks the cannon. Black flipped a piece in reply.
course-banqi-ranks-soldier-task = The lowest piece has one surprise. Capture the black general.
course-banqi-ranks-soldier-hint = Only a soldier can take a general (and the general cannot take soldiers). Type /move f2f3.
course-banqi-ranks-soldier-done = The soldier takes the general! There is no check in Banqi: you win when your opponent has no move left, usually because all their pieces are gone.

## Lesson 10: the Banqi cannon

course-banqi-cannon-title = Banqi: the cannon's jump
course-banqi-cannon-task = The cannon moves one square like the others, but captures only by jumping over exactly one piece (face up or down) along a row or file, any distance. Take the black chariot on a4.
course-banqi-cannon-hint = The cannon cannot take the horse next to it. Jump over the piece on a2 instead: /move a1a4.
course-banqi-cannon-done = A cannon ignores rank when it jumps: it can take even a general. Face-down pieces can never be captured.
