export { answerQuestionSchema, createTenderQuestionSchema } from './question.schema';
