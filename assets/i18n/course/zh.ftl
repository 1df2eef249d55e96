# 规则课程（/learn）：课文与课程自己的消息。
# 坐标与 /move 相同：a–i 为红方从左到右的列，0–9 为红方一侧起的行。

## 课程本身

learn-welcome = 欢迎来到揭棋课程！一共十节小课，每节是棋盘上的一道题。用 /move 作答（例如 /move b0c2）。/learn list 查看课程目录，/learn <编号> 跳到某一课，/learn restart 从头开始，/learn stop 暂停。
command-learn = 规则课程：一节节小课，用 /move 作答
learn-resume = 欢迎回来：这是你上次停下的地方。
learn-heading = 第 { $number }/{ $total } 课：{ $title }（第 { $step }/{ $steps } 步）
learn-correct = ✅ { $explanation }
learn-wrong = 不是这一步。{ $hint }
learn-next-lesson = 第 { $number } 课完成！
learn-finished = 🎓 你已学完全部课程！用 /challenge 向别人挑战，或用 /play bot 和引擎下一盘。/learn restart 可以重新学一遍。
learn-finished-already = 你已经学完了课程。/learn restart 重新学一遍，/learn <编号> 打开某一课。
learn-list = 课程目录（✓ 已完成，▶ 当前位置）：
    { $lessons }
    用 /learn <编号> 打开一课。
learn-stopped = 课程已暂停。/learn 会从你停下的地方继续。
learn-not-started = 你还没有开始课程：发送 /learn 开始。
refuse-learn-usage = 用法：/learn、/learn <编号>（1 到 { $total }）、/learn list、/learn restart 或 /learn stop。
refuse-learn-no-such-lesson = 没有第 { $number } 课：请选择 1 到 { $total }。

## 第 1 课：暗子

course-covered-title = 暗子按所在位置的棋子走
course-covered-horse-task = 揭棋里除了将帅，所有棋子都背面朝上、打乱摆放，这就是暗子。暗子按它所站的起始位置上的棋子走法行动。b0 上的暗子站在马的位置：像马一样跳到 c2。
course-covered-horse-hint = b0 是马的位置，所以这枚暗子按马走：先直走一格，再斜走一格。输入 /move b0c2。
course-covered-horse-done = 它像马一样跳了出去，并且翻开了：原来是一个车！位置决定它怎么走，发牌决定它是什么。
course-covered-cannon-task = h2 上的暗子站在炮的位置，所以它按炮的方式吃子：隔着正好一个棋子（炮架）打过去。吃掉 h9 上的黑车。
course-covered-cannon-hint = 炮吃子时要隔一个棋子（这里是 h6 的卒）打到后面的棋子。输入 /move h2h9。
course-covered-cannon-done = 它按炮的方式吃了子，翻开后是一个士。暗子按所在位置的棋子走和吃，也受那种棋子的限制。

## 第 2 课：揭子

course-reveal-title = 翻开暗子
course-reveal-push-task = 暗子第一次走动时就会翻开，所有人都能看到它是什么。把 c3（兵的位置）上的暗子向前推一步。
course-reveal-push-hint = c3 是兵的位置，所以这枚暗子向前走一步。输入 /move c3c4。
course-reveal-push-done = 惊喜：它是一个车！从现在起它按真实身份走。黑方应了一步，把将走到 e8。
course-reveal-use-task = 你的新车可以沿直线走任意格。用它吃掉 c9 上的黑马。
course-reveal-use-hint = c4 的车可以沿 c 列直冲上去。输入 /move c4c9。
course-reveal-use-done = 好棋。翻开的棋子按真实身份行走，无论它在哪里翻开。

## 第 3 课：士和象的自由

course-free-title = 翻开的士和象不受限制
course-free-elephant-task = 象翻开以后可以过河。它仍然走“田”字，象眼被堵住时仍然不能走。用 e4 的象吃掉 g6 的黑马。
course-free-elephant-hint = e4 的象斜走两格；象眼 f5 是空的，河界也不再挡住它。输入 /move e4g6。
course-free-elephant-done = 过河了！普通象棋里象不能离开本方半场；揭棋里翻开的象可以。
course-free-advisor-task = 翻开的士可以离开九宫：它斜走一格，哪里都能去。用 d2 的士吃掉 c3 的黑卒。
course-free-advisor-hint = d2 的士斜走一格，出九宫也可以。输入 /move d2c3。
course-free-advisor-done = 出宫了！只有将帅必须留在九宫里。站在士位上的暗子在翻开之前仍然不能出九宫。

## 第 4 课：将帅不能照面

course-flying-title = 将帅不能照面
course-flying-escape-task = 两个将帅不能在同一条直线上、中间没有棋子地对面。e5 的黑车正在将你的军：应将。
course-flying-escape-hint = 你的帅可以走 d1 或 f1——但到了 d1 就会和 d9 的黑将照面。输入 /move e1f1。
course-flying-escape-done = 安全了。会让将帅照面的走法是不合法的，所以将帅也控制着它所在的整条直线。

## 第 5 课：吃暗子

course-capture-title = 吃掉暗子
course-capture-covered-task = 暗子也可以被吃。用你的车吃掉 b9 上的暗子。
course-capture-covered-hint = b4 的车沿 b 列直冲上去。输入 /move b4b9。
course-capture-covered-done = 吃掉了！只有你知道它是什么——一个炮：对局中会私信告诉你，你自己的棋盘图会在吃子栏里显示它。对手和群里只看到一枚暗子。

## 第 6 课：将军与将死

course-mate-title = 将军与将死
course-mate-check-task = 将军就是攻击对方的将。用你的车将军。
course-mate-check-hint = 把车放到黑将所在的行或列上，中间不要有棋子。试试 /move b1b9。
course-mate-check-done = 将军！被将军的一方必须应将：躲开、垫子或吃掉将军的棋子。这里黑将可以躲开，所以还不是将死。
course-mate-mate-task = 现在你 a8 的另一个车控制着第 8 行。将军，让黑将无路可走：将死它。
course-mate-mate-hint = 黑将不能上到第 8 行（a8 的车控制着），也不能沿第 9 行横走。输入 /move b1b9。
course-mate-mate-done = 将死：你赢了！一方无子可走也算输，不论是否被将军。

## 第 7 课：重复局面与无吃子和棋

course-repetition-title = 重复局面与无吃子和棋
course-repetition-check-task = 黑方每一步都在将军，来回反复。把帅走到 e2：同一个局面就第三次出现了。
course-repetition-check-hint = 走 e0 也能应将，但这一课讲的是重复局面：走到 e2。输入 /move e1e2。
course-repetition-check-done = 第三次出现：规则会判定这一循环，每一步都将军的一方（长将）判负——你赢了。长捉同样判负；双方都不违规则判和。
course-repetition-quiet-task = 已经 119 个半回合没有吃子了，差不多双方各走了 60 步。双方各走 60 步（120 个半回合）没有吃子就判和，翻开暗子不会重新计数。让棋局继续：吃掉 b4 的卒。
course-repetition-quiet-hint = 现在任何不吃子的走法都是第 120 个没有吃子的半回合，棋局就会判和。吃掉那个卒：/move b0b4。
course-repetition-quiet-done = 吃子后重新计数，棋局继续。揭棋的课程到此结束，接下来是暗棋。

## 第 8 课：暗棋的翻子

course-banqi-flip-title = 暗棋：翻子与颜色
course-banqi-flip-task = 暗棋（翻翻棋）在半张棋盘上下，32 个棋子全部背面朝上放在格子里。此时谁都还没有颜色：随便翻开一枚，例如 /move d2。
course-banqi-flip-hint = 输入格子名就能翻开那里的暗子，例如 /move d2。
course-banqi-flip-done = 你翻出的颜色就是你的，对手执另一种颜色。之后每一步三选一：翻开任意一枚暗子、把自己的一枚棋子走一格、或者吃子。

## 第 9 课：暗棋的大小

course-banqi-ranks-title = 暗棋：谁能吃谁
course-banqi-ranks-horse-task = 棋子按大小吃相邻格子里的子：将、士、象、车、马、炮、兵。你 c2 的马可以吃掉一个邻居：是哪一个？
course-banqi-ranks-horse-hint = 马只能吃同级或更小的子：d2 的炮可以，c3 的车不行。输入 /move c2d2。
course-banqi-ranks-horse-done = 对：马比炮大。黑方应了一步，翻开了一枚棋子。
course-banqi-ranks-soldier-task = 最小的棋子有一个惊喜。吃掉黑将。
course-banqi-ranks-soldier-hint = 只有兵能吃将（而将不能吃兵）。输入 /move f2f3。
course-banqi-ranks-soldier-done = 兵吃将！暗棋没有将军：对手无棋可走时你就赢了，通常是因为他的棋子被吃光了。

## 第 10 课：暗棋的炮

course-banqi-cannon-title = 暗棋：炮的跳吃
course-banqi-cannon-task = 炮和其他棋子一样走一格，但吃子只能跳吃：沿行或列隔着正好一个棋子（明子暗子都行），距离不限。吃掉 a4 的黑车。
course-banqi-cannon-hint = 炮不能吃紧挨着的马。改为隔着 a2 的棋子跳过去：/move a1a4。
course-banqi-cannon-done = 炮跳吃时不论大小：连将都能吃。暗子永远不能被吃。
